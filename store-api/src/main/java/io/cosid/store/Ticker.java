package io.cosid.store;

/**
 * Where a store, a {@link LeaseGuard} and the meters read elapsed time: {@link System#nanoTime()}
 * in production, a hand-stepped one in tests, so that a test steps time instead of waiting for it
 * (Caffeine's {@code Ticker} has the same shape).
 */
@FunctionalInterface
public interface Ticker {

    /**
     * Nanoseconds from an arbitrary origin; only differences mean anything.
     *
     * @return the ticker's reading
     */
    long nanos();

    /**
     * The JVM's monotonic clock.
     *
     * @return a ticker reading {@link System#nanoTime()}
     */
    static Ticker system() {
        return System::nanoTime;
    }
}
