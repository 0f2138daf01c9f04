package io.cosid.store;

/** Planted violation: an API class that depends on a library (JUnit) instead of the JDK alone. */
public class PlantedApiDependency {
    void check() {
        org.junit.jupiter.api.Assertions.assertTrue(true);
    }
}
