package io.cosid.store.benchmarks;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.JdbcStores;
import io.cosid.store.tck.net.DelayingProxy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Range acquires on one SQL server, side by side in one run, one client each, in interleaved
 * rounds: ours (cosid-store's JDBC store), a bare {@code UPDATE ... RETURNING} (the floor: one
 * round trip, no guard), and the pattern Meituan Leaf's segment mode and CosId's {@code
 * JdbcIdSegmentDistributor} send ({@code UPDATE}, then {@code SELECT}, then {@code COMMIT}: three
 * round trips). Prints each one's median latency and its ratio to the bare statement's, round by
 * round and over all rounds (the median of the rounds' medians).
 *
 * <p>Arguments: {@code --jdbc-url URL} (PostgreSQL; required), {@code --seconds S} per contender
 * and round (default 3), {@code --rounds N} (default 5), {@code --warmup S} (default 3), {@code
 * --delay-us D} ({@link JdbcBenchArgs}), {@code --interleave round|call}: each contender for a
 * whole round in turn (default), or the contenders taking turns call by call within each round.
 */
public final class JdbcSideBySide {

    private static final long STEP = 100;

    /** The store's provenance of a write (store-jdbc's Dialect.origin and replicated). */
    private static final String ORIGIN =
            "('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint";

    private static final String REPLICATED =
            "(current_setting('synchronous_standby_names') <> '' AND"
                    + " current_setting('synchronous_commit') IN ('on', 'remote_apply'))";

    private JdbcSideBySide() {}

    /** Hands out one range of {@link #STEP} values; returns its end. */
    @FunctionalInterface
    private interface Acquire {
        long acquire() throws SQLException;
    }

    /** One way of handing out ranges, and what it holds open. */
    private static final class Contender implements AutoCloseable {
        private final String name;
        private final Acquire acquire;
        private final AutoCloseable resource;
        private long last = -1;

        Contender(String name, Acquire acquire, AutoCloseable resource) {
            this.name = name;
            this.acquire = acquire;
            this.resource = resource;
        }

        String name() {
            return name;
        }

        /** One acquire, its latency added to {@code into}; fails if it did not go up. */
        void timed(Latencies into) throws SQLException {
            long sent = System.nanoTime();
            long next = acquire.acquire();
            into.add(System.nanoTime() - sent);
            if (next <= last) {
                throw new IllegalStateException(name + " handed out " + next + " after " + last);
            }
            last = next;
        }

        @Override
        public void close() throws Exception {
            resource.close();
        }
    }

    /**
     * Runs the harness.
     *
     * @param args see the class comment
     * @throws Exception if a database call fails
     */
    public static void main(String[] args) throws Exception {
        JdbcBenchArgs options = new JdbcBenchArgs(args);
        String url = options.url();
        double seconds = Double.parseDouble(options.get("--seconds", "3"));
        int rounds = Integer.parseInt(options.get("--rounds", "5"));
        double warmup = Double.parseDouble(options.get("--warmup", "3"));
        prepare(url);
        DelayingProxy proxy = options.proxy();
        String via = options.via(proxy);
        List<Contender> contenders =
                List.of(
                        bare(via),
                        ours(via),
                        oursOnDataSource(via),
                        oursStatementAlone(via),
                        threeRoundTrips(via));
        try {
            for (Contender c : contenders) {
                run(c, warmup);
            }
            Map<String, List<Double>> medians = new LinkedHashMap<>();
            contenders.forEach(c -> medians.put(c.name(), new ArrayList<>()));
            boolean perCall = options.get("--interleave", "round").equals("call");
            for (int round = 0; round < rounds; round++) {
                if (perCall) {
                    Map<String, Latencies> each = runByCall(contenders, seconds);
                    each.forEach(
                            (name, l) ->
                                    Objects.requireNonNull(medians.get(name))
                                            .add(l.medianMicros()));
                    continue;
                }
                for (int i = 0; i < contenders.size(); i++) {
                    // each round starts with another contender: none always runs first
                    Contender c = contenders.get((i + round) % contenders.size());
                    Objects.requireNonNull(medians.get(c.name()))
                            .add(run(c, seconds).medianMicros());
                }
            }
            print(medians);
        } finally {
            for (Contender c : contenders) {
                c.close();
            }
            if (proxy != null) {
                proxy.close();
            }
        }
    }

    private static Latencies run(Contender c, double seconds) throws SQLException {
        Latencies latencies = new Latencies();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            c.timed(latencies);
        }
        latencies.elapsed(System.nanoTime() - start);
        return latencies;
    }

    /**
     * One round of {@code seconds} in which the contenders take turns call by call, each turn
     * starting with the next one: all of them meet the server in the same state (its WAL flushes
     * vary from second to second by more than what separates them).
     */
    private static Map<String, Latencies> runByCall(List<Contender> contenders, double seconds)
            throws SQLException {
        Map<String, Latencies> each = new LinkedHashMap<>();
        contenders.forEach(c -> each.put(c.name(), new Latencies()));
        long end = System.nanoTime() + (long) (seconds * 1e9);
        for (int turn = 0; System.nanoTime() < end; turn++) {
            for (int i = 0; i < contenders.size(); i++) {
                Contender c = contenders.get((i + turn) % contenders.size());
                c.timed(Objects.requireNonNull(each.get(c.name())));
            }
        }
        return each;
    }

    private static void print(Map<String, List<Double>> medians) {
        double bare = median(Objects.requireNonNull(medians.get("bare UPDATE ... RETURNING")));
        System.out.println("| contender | median per round (µs) | median (µs) | ratio to bare |");
        System.out.println("|---|---|---|---|");
        for (Map.Entry<String, List<Double>> e : medians.entrySet()) {
            double m = median(e.getValue());
            StringBuilder rounds = new StringBuilder();
            for (double r : e.getValue()) {
                rounds.append(rounds.length() == 0 ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%.0f", r));
            }
            System.out.printf(
                    Locale.ROOT, "| %s | %s | %.0f | %.2fx |%n", e.getKey(), rounds, m, m / bare);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    /** The tables the bare and the three-round-trip contenders write (ours creates its own). */
    private static void prepare(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS bench_bare, bench_leaf_alloc");
            s.execute(
                    "CREATE TABLE bench_bare (name text PRIMARY KEY, next_value bigint NOT NULL)");
            s.execute("INSERT INTO bench_bare VALUES ('orders', 0)");
            s.execute(
                    "CREATE TABLE bench_leaf_alloc (biz_tag varchar(128) PRIMARY KEY, max_id bigint"
                            + " NOT NULL, step int NOT NULL)");
            s.execute("INSERT INTO bench_leaf_alloc VALUES ('orders', 1, " + STEP + ")");
        }
    }

    private static Contender bare(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        PreparedStatement s =
                c.prepareStatement(
                        "UPDATE bench_bare SET next_value = next_value + ? WHERE name = ?"
                                + " RETURNING next_value");
        return new Contender(
                "bare UPDATE ... RETURNING",
                () -> {
                    s.setLong(1, STEP);
                    s.setString(2, "orders");
                    try (ResultSet r = s.executeQuery()) {
                        r.next();
                        return r.getLong(1);
                    }
                },
                c);
    }

    private static Contender ours(String url) {
        Store store =
                Stores.open(
                        StoreConfig.of("bench", "jdbc")
                                .withOption("url", url)
                                .withOption("poolSize", "1")
                                .withOption("tablePrefix", "bench_")
                                .withOption("schema", "create"));
        return new Contender(
                "cosid-store (guarded, one statement)",
                () -> store.ranges().acquire("orders", STEP).end(),
                store);
    }

    /**
     * The store on an application's data source (one connection, handed out at once): each
     * operation borrows its connection on a thread of the store's, to keep its budget whatever the
     * pool's own wait; this contender shows what that hand-off costs.
     */
    private static Contender oursOnDataSource(String url) throws SQLException {
        JdbcContention.OneConnection connection = new JdbcContention.OneConnection(url);
        Store store =
                JdbcStores.open(
                        StoreConfig.of("bench-ds", "jdbc").withOption("tablePrefix", "bench_"),
                        connection);
        return new Contender(
                "cosid-store on an application's data source",
                () -> store.ranges().acquire("orders", STEP).end(),
                () -> {
                    store.close();
                    connection.close();
                });
    }

    /**
     * The very statement the JDBC store sends for an acquire, prepared once on a plain connection:
     * what the guards cost on the server, apart from the store's work on the client (its pool, the
     * network timeout set per statement, the statement prepared per call).
     */
    private static Contender oursStatementAlone(String url)
            throws SQLException, NoSuchAlgorithmException {
        Connection c = DriverManager.getConnection(url);
        long incarnation;
        try (Statement s = c.createStatement()) {
            s.execute(
                    "INSERT INTO bench_ranges (key_hash, range_key, next_value, written_origin,"
                            + " written_replicated) VALUES (sha256(convert_to('alone', 'UTF8')),"
                            + " 'alone', 0, "
                            + ORIGIN
                            + ", "
                            + REPLICATED
                            + ")"
                            + " ON CONFLICT (key_hash) DO NOTHING");
            try (ResultSet r =
                    s.executeQuery(
                            "SELECT incarnation FROM bench_ranges WHERE range_key = 'alone'")) {
                r.next();
                incarnation = r.getLong(1);
            }
        }
        byte[] hash = sha256("alone");
        PreparedStatement s =
                c.prepareStatement(
                        "UPDATE bench_ranges AS r SET next_value = r.next_value + v.value, sealed ="
                                + " r.sealed, written_origin = "
                                + ORIGIN
                                + ", written_replicated = "
                                + REPLICATED
                                + " FROM (SELECT ?::bigint AS value) v WHERE r.key_hash = ? AND"
                                + " r.range_key = ? AND r.incarnation = ? AND r.next_value >= ? AND"
                                + " (r.sealed OR NOT ?) AND (r.written_origin = "
                                + ORIGIN
                                + " OR r.written_replicated) AND NOT r.sealed AND r.next_value <="
                                + " 9223372036854775807 - v.value RETURNING r.next_value,"
                                + " r.incarnation, r.sealed");
        return new Contender(
                "the store's statement alone, prepared once",
                () -> {
                    s.setLong(1, STEP);
                    s.setBytes(2, hash);
                    s.setString(3, "alone");
                    s.setLong(4, incarnation);
                    s.setLong(5, 0);
                    s.setBoolean(6, false);
                    try (ResultSet r = s.executeQuery()) {
                        r.next();
                        return r.getLong(1);
                    }
                },
                c);
    }

    /** What the store binds as a key's hash: SHA-256 of its UTF-8 bytes. */
    static byte[] sha256(String key) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    }

    private static Contender threeRoundTrips(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        c.setAutoCommit(false);
        PreparedStatement update =
                c.prepareStatement(
                        "UPDATE bench_leaf_alloc SET max_id = max_id + step WHERE biz_tag = ?");
        PreparedStatement select =
                c.prepareStatement(
                        "SELECT biz_tag, max_id, step FROM bench_leaf_alloc WHERE biz_tag = ?");
        return new Contender(
                "Leaf / CosId JDBC (UPDATE, SELECT, COMMIT)",
                () -> {
                    update.setString(1, "orders");
                    update.executeUpdate();
                    select.setString(1, "orders");
                    long max;
                    try (ResultSet r = select.executeQuery()) {
                        r.next();
                        max = r.getLong(2);
                    }
                    c.commit();
                    return max;
                },
                c);
    }
}
