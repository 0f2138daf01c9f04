package io.cosid.store.cosid;

import java.time.Duration;

/** How the distributor waits for a lease's floor: {@link Thread#sleep} unless a test says else. */
@FunctionalInterface
interface Pause {

    /** Sleeps on the current thread. */
    Pause SLEEP = duration -> Thread.sleep(Math.max(1, duration.toMillis()));

    /**
     * Waits about {@code duration}.
     *
     * @param duration how long, positive
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    void sleep(Duration duration) throws InterruptedException;
}
