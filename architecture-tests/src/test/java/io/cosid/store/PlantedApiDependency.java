package io.cosid.store;

import org.junit.jupiter.api.Assertions;

/** Planted violation: an API class that depends on a library (JUnit) instead of the JDK alone. */
public class PlantedApiDependency {
    void check() {
        Assertions.assertTrue(true);
    }
}
