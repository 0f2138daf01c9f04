package io.cosid.store.inmemory;

import io.cosid.store.tck.ManualClock;
import java.time.Instant;

/** Planted violation: the in-memory backend reaching into the TCK. */
public class PlantedInMemoryDependency {
    Instant now = new ManualClock(Instant.EPOCH).instant();
}
