package io.cosid.store.benchmarks;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.cosid.StoreIdSegmentDistributorFactory;
import io.cosid.store.jdbc.JdbcStores;
import io.cosid.store.tck.net.DelayingProxy;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import javax.sql.DataSource;
import me.ahoo.cosid.segment.IdSegment;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.segment.concurrent.PrefetchWorkerExecutorService;

/**
 * Contention on one PostgreSQL key, optionally through a {@code DelayingProxy}: (1) 8 clients (each
 * a store of its own on a connection of its own) acquiring ranges of one key as fast as they can:
 * each client's share of the acquires against the mean, statements per acquire (counted on the
 * connections: a lost race would cost a second one), every range checked disjoint; (2) CosId's
 * {@code SegmentChainId} drawing from our {@code StoreIdSegmentDistributor} on the JDBC store and
 * from a distributor written the way CosId's own {@code JdbcIdSegmentDistributor} is ({@link
 * CosIdJdbcDistributor}), 1 and 8 generators, IDs per second in interleaved rounds.
 *
 * <p>Arguments: {@code --jdbc-url URL}, {@code --delay-us D} ({@link JdbcBenchArgs}), {@code
 * --seconds S} per run (default 5), {@code --rounds N} (default 3).
 */
public final class JdbcContention {

    private static final int CLIENTS = 8;
    private static final long STEP = 100;

    private JdbcContention() {}

    /**
     * Runs both measurements and prints their tables.
     *
     * @param args see the class comment
     * @throws Exception if a database call fails
     */
    public static void main(String[] args) throws Exception {
        JdbcBenchArgs options = new JdbcBenchArgs(args);
        double seconds = Double.parseDouble(options.get("--seconds", "5"));
        int rounds = Integer.parseInt(options.get("--rounds", "3"));
        DelayingProxy proxy = options.proxy();
        try {
            String via = options.via(proxy);
            for (int r = 0; r < rounds; r++) {
                shares(via, seconds);
            }
            segmentChains(via, seconds, rounds);
        } finally {
            if (proxy != null) {
                proxy.close();
            }
        }
    }

    /** One run of 8 clients on one key; prints each one's acquires and the verdicts. */
    private static void shares(String url, double seconds) throws Exception {
        String key = "shares-" + UUID.randomUUID().toString().substring(0, 8);
        List<Store> stores = new ArrayList<>();
        List<OneConnection> connections = new ArrayList<>();
        try {
            for (int c = 0; c < CLIENTS; c++) {
                OneConnection connection = new OneConnection(url);
                connections.add(connection);
                stores.add(JdbcStores.open(config(), connection));
            }
            stores.get(0).ranges().acquire(key, STEP); // the row exists before the race
            long[] before = connections.stream().mapToLong(OneConnection::prepared).toArray();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<List<long[]>> taken = new ArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (Store store : stores) {
                List<long[]> mine = new ArrayList<>();
                taken.add(mine);
                Thread t =
                        new Thread(
                                () -> {
                                    try {
                                        while (!stop.get()) {
                                            Range r = store.ranges().acquire(key, STEP);
                                            mine.add(new long[] {r.start(), r.end()});
                                        }
                                    } catch (RuntimeException e) {
                                        failures.add(e);
                                    }
                                },
                                "share-" + threads.size());
                threads.add(t);
                t.start();
            }
            Thread.sleep((long) (seconds * 1000));
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            requireNone(failures, "8 clients on one key");
            printShares(taken, connections, before);
        } finally {
            stores.forEach(Store::close);
            for (OneConnection c : connections) {
                c.close();
            }
        }
    }

    private static void printShares(
            List<List<long[]>> taken, List<OneConnection> connections, long[] before) {
        RangeChecks checks = new RangeChecks();
        long total = 0;
        long sent = 0;
        StringBuilder counts = new StringBuilder();
        for (int c = 0; c < taken.size(); c++) {
            checks.addAll(taken.get(c));
            total += taken.get(c).size();
            sent += connections.get(c).prepared() - before[c];
            counts.append(c == 0 ? "" : ", ").append(taken.get(c).size());
        }
        checks.requireDisjoint("8 clients on one key");
        double mean = (double) total / taken.size();
        double lowest = taken.stream().mapToInt(List::size).min().orElse(0) / mean;
        System.out.printf(
                Locale.ROOT,
                "| 8 clients, one key | acquires per client: %s | lowest share %.2f of the mean |"
                        + " %.3f statements per acquire (%d lost races) |%n",
                counts,
                lowest,
                (double) sent / total,
                sent - total);
    }

    /** CosId's SegmentChainId on both distributors, 1 and 8 generators, interleaved rounds. */
    private static void segmentChains(String url, double seconds, int rounds) throws Exception {
        CosIdJdbcDistributor.createTable(url);
        for (int generators : List.of(1, 8)) {
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            for (int r = 0; r < rounds; r++) {
                for (boolean ours : r % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                    String name = ours ? "StoreIdSegmentDistributor" : "CosId's JDBC way";
                    rates.computeIfAbsent(name, n -> new ArrayList<>())
                            .add(idsPerSecond(url, ours, generators, seconds));
                }
            }
            for (Map.Entry<String, List<Double>> e : rates.entrySet()) {
                List<Double> sorted = new ArrayList<>(e.getValue());
                sorted.sort(null);
                System.out.printf(
                        Locale.ROOT,
                        "| SegmentChainId, step %d, %d generator(s) | %s | IDs/s per round %s |"
                                + " median %.0f |%n",
                        STEP,
                        generators,
                        e.getKey(),
                        e.getValue().stream()
                                .map(v -> String.format(Locale.ROOT, "%.0f", v))
                                .toList(),
                        sorted.get(sorted.size() / 2));
            }
        }
    }

    private static double idsPerSecond(String url, boolean ours, int generators, double seconds)
            throws Exception {
        String name = "chain-" + UUID.randomUUID().toString().substring(0, 8);
        List<AutoCloseable> open = new ArrayList<>();
        List<RecordingSegmentDistributor> recorders = new ArrayList<>();
        PrefetchWorkerExecutorService prefetch =
                new PrefetchWorkerExecutorService(
                        PrefetchWorkerExecutorService.DEFAULT_PREFETCH_PERIOD, generators, false);
        try {
            List<SegmentChainId> chains = new ArrayList<>();
            for (int g = 0; g < generators; g++) {
                IdSegmentDistributor d;
                if (ours) {
                    OneConnection connection = new OneConnection(url);
                    Store store = JdbcStores.open(config(), connection);
                    open.add(store);
                    open.add(connection);
                    d =
                            new StoreIdSegmentDistributorFactory(store.ranges())
                                    .create(
                                            new IdSegmentDistributorDefinition(
                                                    "bench", name, 0, STEP));
                } else {
                    CosIdJdbcDistributor cosid = new CosIdJdbcDistributor(url, name, STEP);
                    open.add(cosid);
                    d = cosid;
                }
                RecordingSegmentDistributor recorder = new RecordingSegmentDistributor(d);
                recorders.add(recorder);
                chains.add(
                        new SegmentChainId(
                                IdSegment.TIME_TO_LIVE_FOREVER,
                                SegmentChainId.DEFAULT_SAFE_DISTANCE,
                                recorder,
                                prefetch));
            }
            return generate(chains, recorders, seconds);
        } finally {
            prefetch.shutdown();
            for (AutoCloseable c : open) {
                c.close();
            }
        }
    }

    private static double generate(
            List<SegmentChainId> chains, List<RecordingSegmentDistributor> recorders, double s)
            throws InterruptedException {
        LongAdder ids = new LongAdder();
        long end = System.nanoTime() + (long) (s * 1e9);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (SegmentChainId chain : chains) {
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    while (System.nanoTime() - end < 0) {
                                        chain.generate();
                                        ids.increment();
                                    }
                                } catch (RuntimeException e) {
                                    failures.add(e);
                                }
                            },
                            "generator-" + threads.size());
            threads.add(t);
            t.start();
        }
        long started = System.nanoTime();
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        requireNone(failures, "SegmentChainId generators");
        RangeChecks checks = new RangeChecks();
        recorders.forEach(r -> checks.addAll(r.segments()));
        checks.requireDisjoint("SegmentChainId segments");
        return ids.sum() / elapsed;
    }

    /** Fails the measurement {@code what} if any of its threads failed. */
    private static void requireNone(List<Throwable> failures, String what) {
        if (!failures.isEmpty()) {
            throw new IllegalStateException(what + " failed: " + failures.get(0), failures.get(0));
        }
    }

    private static StoreConfig config() {
        return StoreConfig.of("bench", "jdbc")
                .withOption("tablePrefix", "bench_")
                .withOption("schema", "create");
    }

    /**
     * A data source of one connection, for one client's store: each statement it prepares is
     * counted, and closing a handle keeps the connection for the next operation; closing the data
     * source closes it.
     */
    static final class OneConnection implements DataSource, AutoCloseable {
        private final Connection real;
        private final Connection handle;

        private final AtomicLong prepared = new AtomicLong();

        OneConnection(String url) throws SQLException {
            this.real = DriverManager.getConnection(url);
            this.handle =
                    (Connection)
                            Proxy.newProxyInstance(
                                    JdbcContention.class.getClassLoader(),
                                    new Class<?>[] {Connection.class},
                                    (proxy, method, a) -> {
                                        if (method.getName().equals("close")) {
                                            return null;
                                        }
                                        if (method.getName().startsWith("prepare")) {
                                            prepared.incrementAndGet();
                                        }
                                        try {
                                            return method.invoke(real, a);
                                        } catch (InvocationTargetException e) {
                                            throw e.getCause();
                                        }
                                    });
        }

        /** How many statements the store prepared on the connection. */
        long prepared() {
            return prepared.get();
        }

        @Override
        public Connection getConnection() {
            return handle;
        }

        @Override
        public Connection getConnection(String username, String password) {
            return handle;
        }

        @Override
        public PrintWriter getLogWriter() {
            return new PrintWriter(PrintWriter.nullWriter());
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }

        @Override
        public void close() throws SQLException {
            real.close();
        }
    }
}
