package io.cosid.store.zookeeper.internal.wire;

/**
 * Where a store reads elapsed time: {@link System#nanoTime()} in production, a hand-stepped one in
 * tests, so that a test steps time instead of waiting for it. One per store, wired by Dagger.
 */
@FunctionalInterface
public interface Ticker {

    /** Nanoseconds from an arbitrary origin; only differences mean anything. */
    long nanos();

    /** The JVM's monotonic clock. */
    static Ticker system() {
        return System::nanoTime;
    }
}
