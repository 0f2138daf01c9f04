package io.cosid.store.zookeeper.internal.wire;

import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.KeeperException;

/**
 * Keeps a synchronous ZooKeeper call to its operation's budget: one shared daemon thread interrupts
 * a caller still waiting at its deadline, and the caller takes the interrupt back before it
 * returns.
 *
 * <p>Why synchronous calls at all: the reply to a synchronous request wakes the waiting caller
 * straight from the client's I/O thread, while the reply to an asynchronous one passes through
 * ZooKeeper's event thread first. That one more thread hand-off is a measurable part of a {@code
 * setData} round trip on a nearby server (docs/performance.md), and the single conditional write of
 * an uncontended range acquire is the store's hottest path. Why a watchdog: ZooKeeper's synchronous
 * API waits for the reply without a limit, and its own limit ({@code zookeeper.request.timeout}) is
 * a setting of the caller's client that drops the connection when it fires.
 *
 * <p>A caller is interrupted at most {@link #TICK_NANOS} after its deadline. An interrupt the
 * caller's thread already had, or gets from elsewhere while waiting, ends the call as an interrupt,
 * as it would end a wait for an asynchronous reply.
 */
final class CallWatchdog {

    /** How often the watchdog looks at waiting callers while there are any. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /** One watchdog for every store in the JVM: it sleeps while no call waits. */
    static final CallWatchdog SHARED = new CallWatchdog("cosid-store-call-watchdog");

    /** A synchronous call. */
    @FunctionalInterface
    interface Call<T> {
        T run() throws KeeperException, InterruptedException;
    }

    private static final int WAITING = 0;
    private static final int DONE = 1;
    private static final int INTERRUPTING = 2;
    private static final int INTERRUPTED = 3;

    /** A caller waiting in a call, and whether the watchdog has interrupted it. */
    private static final class Waiter {
        final Thread thread = Thread.currentThread();
        final long deadlineNanos;
        final AtomicInteger state = new AtomicInteger(WAITING);

        Waiter(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }
    }

    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    private final Thread thread;

    /** Set by the watchdog before it parks with nobody waiting; a new caller then wakes it. */
    private volatile boolean idle;

    CallWatchdog(String threadName) {
        thread = new Thread(this::watch, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs {@code call} on this thread, interrupting it if it still runs {@code remainingNanos}
     * from now.
     *
     * @throws TimeoutException when the watchdog interrupted the call; this thread is not left
     *     interrupted
     * @throws InterruptedException when something else interrupted it
     */
    <T> T run(long remainingNanos, Call<T> call)
            throws KeeperException, InterruptedException, TimeoutException {
        Waiter waiter = new Waiter(System.nanoTime() + remainingNanos);
        waiting.add(waiter);
        if (idle) {
            LockSupport.unpark(thread);
        }
        T result;
        try {
            result = call.run();
        } catch (InterruptedException e) {
            if (takeBack(waiter)) {
                throw new TimeoutException("interrupted by the watchdog at its deadline");
            }
            throw e;
        } catch (KeeperException | RuntimeException | Error e) {
            takeBack(waiter);
            throw e;
        }
        takeBack(waiter); // the reply came: it counts, even when the watchdog fired just after it
        return result;
    }

    /**
     * Ends the wait; true (and this thread's interrupt cleared) when the watchdog interrupted it.
     */
    private boolean takeBack(Waiter waiter) {
        waiting.remove(waiter);
        if (waiter.state.compareAndSet(WAITING, DONE)) {
            return false;
        }
        while (waiter.state.get() != INTERRUPTED) {
            Thread.onSpinWait(); // the watchdog is between its decision and its interrupt: a few
            // instructions
        }
        Thread.interrupted();
        return true;
    }

    private void watch() {
        while (true) {
            if (waiting.isEmpty()) {
                idle = true;
                if (waiting.isEmpty()) { // a caller that came after the first look saw idle and
                    // unparks us
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            long now = System.nanoTime();
            for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (now - w.deadlineNanos >= 0 && w.state.compareAndSet(WAITING, INTERRUPTING)) {
                    w.thread.interrupt();
                    w.state.set(INTERRUPTED);
                    it.remove();
                }
            }
            LockSupport.parkNanos(this, TICK_NANOS);
        }
    }
}
