package io.cosid.store.benchmarks;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.Stores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Instances starting together on PostgreSQL, as a fleet (re)starts: each instance opens a store of
 * its own on its own connection (pool size 1) and acquires a slot in one namespace, retrying an
 * acquire that timed out, as an application would. Reports how long until every instance held its
 * slot, the opens' and acquires' latencies, and how many acquires timed out and were retried. The
 * reference, in the same round: the same number of instances each opening a plain connection and
 * sending one transaction of three trivial statements (what any fleet with a connection per
 * instance pays on this machine, whatever it stores).
 *
 * <p>Arguments: {@code --jdbc-url URL} (its server needs {@code max_connections} above the
 * instances), {@code --instances N} (default 1024), {@code --timeout D} (the stores' timeout,
 * default 3s), {@code --rounds R} (default 3), and for a fleet of several processes {@code
 * --namespace NS} and {@code --limit L}: every process starts its instances in that one namespace
 * of {@code L} slots (default: a new namespace per round with a slot per instance); {@code --start
 * acquire} opens every store first and starts only the acquires together (default {@code
 * open+acquire}: each instance opens its store and acquires at once). A timed-out open or acquire
 * is retried and counted. "All held" counts from the start signal.
 */
public final class JdbcHerd {

    private JdbcHerd() {}

    /**
     * Runs the rounds and prints one line each.
     *
     * @param args see the class comment
     * @throws Exception if the fleet could not start
     */
    public static void main(String[] args) throws Exception {
        JdbcBenchArgs options = new JdbcBenchArgs(args);
        int instances = Integer.parseInt(options.get("--instances", "1024"));
        Duration timeout = StoreConfig.parseDuration("--timeout", options.get("--timeout", "3s"));
        int rounds = Integer.parseInt(options.get("--rounds", "3"));
        String shared = options.get("--namespace", "");
        int limit = Integer.parseInt(options.get("--limit", Integer.toString(instances)));
        boolean openFirst = options.get("--start", "open+acquire").equals("acquire");
        System.out.println(
                "| round | instances | all held (s) | plain connections, all done (s) | open p50 /"
                        + " p99 / max (ms) | acquire p50 / p99 / max (ms) | acquires timed out and"
                        + " retried | opens timed out and retried |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int r = 1; r <= rounds; r++) {
            String namespace =
                    shared.isEmpty()
                            ? "herd-" + UUID.randomUUID().toString().substring(0, 8)
                            : shared;
            System.out.println(
                    round(options.url(), namespace, limit, instances, timeout, openFirst, r));
        }
    }

    /** One fleet start; the table row. */
    private static String round(
            String url,
            String namespace,
            int limit,
            int instances,
            Duration timeout,
            boolean openFirst,
            int round)
            throws Exception {
        StoreConfig config =
                StoreConfig.of("herd", "jdbc")
                        .withTimeout(timeout)
                        .withOption("url", url)
                        .withOption("poolSize", "1");
        try (Store setup = Stores.open(config.withOption("schema", "create"))) {
            setup.slots().define(namespace, limit, Duration.ofSeconds(1));
        }
        Fleet fleet = new Fleet(config, namespace, instances, openFirst);
        double all = fleet.start();
        double plain = plain(url, instances);
        return fleet.row(round, all, plain);
    }

    /** One fleet start's instances, what each measured, and what went wrong. */
    private static final class Fleet {
        private final StoreConfig config;
        private final String namespace;
        private final int instances;
        private final boolean openFirst;
        private final String owner = "instance-" + UUID.randomUUID().toString().substring(0, 8);
        private final CountDownLatch go = new CountDownLatch(1);
        private final CountDownLatch ready;
        private final long[] opens;
        private final long[] acquires;
        private final AtomicInteger retried = new AtomicInteger();
        private final AtomicInteger openRetries = new AtomicInteger();
        private final Set<Integer> slots = ConcurrentHashMap.newKeySet();
        private final List<Throwable> failures = new CopyOnWriteArrayList<>();
        private final List<Store> stores = new CopyOnWriteArrayList<>();

        Fleet(StoreConfig config, String namespace, int instances, boolean openFirst) {
            this.config = config;
            this.namespace = namespace;
            this.instances = instances;
            this.openFirst = openFirst;
            this.ready = new CountDownLatch(instances);
            this.opens = new long[instances];
            this.acquires = new long[instances];
        }

        /** Starts every instance together; seconds until all hold a slot. */
        double start() throws InterruptedException {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                int instance = i;
                Thread t = new Thread(() -> run(instance), "instance-" + i);
                threads.add(t);
                t.start();
            }
            if (openFirst) {
                ready.await();
            }
            long start = System.nanoTime();
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            double all = (System.nanoTime() - start) / 1e9;
            stores.forEach(Store::close);
            if (!failures.isEmpty()) {
                IllegalStateException e =
                        new IllegalStateException(
                                failures.size()
                                        + " instances failed; the first: "
                                        + failures.get(0));
                failures.forEach(e::addSuppressed);
                throw e;
            }
            if (new TreeSet<>(slots).size() != instances) {
                throw new IllegalStateException("not every instance holds a distinct slot");
            }
            return all;
        }

        /** One instance: open its store, acquire a slot, each again after a timeout. */
        private void run(int instance) {
            try {
                if (!openFirst) {
                    go.await();
                }
                long start = System.nanoTime();
                Store store = open(config, openRetries);
                stores.add(store);
                opens[instance] = System.nanoTime() - start;
                ready.countDown();
                if (openFirst) {
                    go.await();
                }
                long opened = System.nanoTime();
                SlotLease lease = null;
                while (lease == null) {
                    try {
                        lease =
                                store.slots()
                                        .acquire(
                                                namespace,
                                                owner + "-" + instance,
                                                Duration.ofMinutes(5));
                    } catch (StoreTimeoutException e) {
                        retried.incrementAndGet();
                    }
                }
                acquires[instance] = System.nanoTime() - opened;
                if (!slots.add(lease.slot())) {
                    throw new IllegalStateException("slot " + lease.slot() + " handed out twice");
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        }

        /** The table row of this start. */
        String row(int round, double all, double plain) {
            Arrays.sort(opens);
            Arrays.sort(acquires);
            return String.format(
                    "| %d | %d | %.1f | %.1f | %.0f / %.0f / %.0f | %.0f / %.0f / %.0f | %d | %d |",
                    round,
                    instances,
                    all,
                    plain,
                    ms(opens, 0.5),
                    ms(opens, 0.99),
                    ms(opens, 1.0),
                    ms(acquires, 0.5),
                    ms(acquires, 0.99),
                    ms(acquires, 1.0),
                    retried.get(),
                    openRetries.get());
        }
    }

    /** Opens a store, again after an open that timed out (an instance would retry its start). */
    private static Store open(StoreConfig config, AtomicInteger retries) {
        while (true) {
            try {
                return Stores.open(config);
            } catch (StoreTimeoutException e) {
                retries.incrementAndGet();
            }
        }
    }

    /**
     * The reference: {@code instances} threads starting together, each opening a connection and
     * sending one transaction of three trivial statements; seconds until all are done.
     */
    private static double plain(String url, int instances) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Connection> connections = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    go.await();
                                    Connection c = DriverManager.getConnection(url);
                                    connections.add(c);
                                    c.setAutoCommit(false);
                                    try (Statement s = c.createStatement()) {
                                        for (int q = 0; q < 3; q++) {
                                            s.executeQuery("SELECT 1").close();
                                        }
                                    }
                                    c.commit();
                                } catch (Throwable e) {
                                    failures.add(e);
                                }
                            },
                            "plain-" + i);
            threads.add(t);
            t.start();
        }
        long start = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        for (Connection c : connections) {
            c.close();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(
                    failures.size() + " plain connections failed; the first: " + failures.get(0));
        }
        return seconds;
    }

    private static double ms(long[] sorted, double quantile) {
        int i = Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1);
        return sorted[Math.max(0, i)] / 1e6;
    }
}
