package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreConfig;
import io.cosid.store.Ticker;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * Keeps a synchronous ZooKeeper call to its operation's budget: the store's watchdog thread
 * interrupts a caller still waiting at its deadline, and the caller takes the interrupt back before
 * it returns. One per store: its thread starts with the first call and ends when the store closes
 * (or, after close, once no call waits), and deadlines are read from the store's {@link Ticker}.
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
@Singleton
public final class CallWatchdog {

    /** How often the watchdog looks at waiting callers while there are any. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

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
    private final String threadName;
    private final Ticker ticker;

    /** The watchdog thread while one runs; started by the first call (guarded by this). */
    private volatile @Nullable Thread thread;

    /** Set by the watchdog before it parks with nobody waiting; a new caller then wakes it. */
    private volatile boolean idle;

    private volatile boolean closed;

    @Inject
    CallWatchdog(StoreConfig config, Ticker ticker) {
        this("cosid-store-call-watchdog-" + config.name(), ticker);
    }

    CallWatchdog(String threadName, Ticker ticker) {
        this.threadName = threadName;
        this.ticker = ticker;
    }

    /**
     * Stops the watchdog thread once no call waits (a call still waiting keeps it until it ends; a
     * call that comes later starts a thread of its own again). Called when the store closes.
     */
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Whether a watchdog thread runs now (for tests). */
    boolean running() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    /** The watchdog thread, started if none runs. The caller's waiter is registered already. */
    private Thread watcher() {
        // while open the thread never ends; after close it ends only under this lock, when it
        // finds nobody waiting, so a caller (whose waiter is in already) takes the lock then
        Thread t = thread;
        if (t != null && !closed) {
            return t;
        }
        synchronized (this) {
            t = thread;
            if (t == null) {
                t = new Thread(this::watch, threadName);
                t.setDaemon(true);
                thread = t;
                t.start();
            }
            return t;
        }
    }

    /** Called by the watchdog with nobody waiting after close: ends it unless a caller came. */
    private synchronized boolean stopIfNobodyWaits() {
        if (!waiting.isEmpty()) {
            return false;
        }
        thread = null;
        return true;
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
        Waiter waiter = new Waiter(ticker.nanos() + remainingNanos);
        waiting.add(waiter);
        Thread watcher = watcher();
        if (idle) {
            LockSupport.unpark(watcher);
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
                if (closed && stopIfNobodyWaits()) {
                    return;
                }
                idle = true;
                if (waiting.isEmpty()) { // a caller that came after the first look saw idle and
                    // unparks us
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            long now = ticker.nanos();
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
