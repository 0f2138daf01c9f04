package io.cosid.store.jdbc;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreObserver;
import io.cosid.store.Ticker;
import io.cosid.store.spi.ObservedStore;
import io.cosid.store.spi.Settlements;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens JDBC stores: on the application's own {@link DataSource} (its pool), or, through {@link
 * io.cosid.store.Stores#open} with type {@value JdbcStoreProvider#TYPE}, on a small pool built from
 * options {@code url}, {@code username} and {@code password}. A store never joins the caller's
 * transaction: it takes connections of its own and commits them itself, and a Spring
 * transaction-aware proxy is unwrapped to the data source behind it, so a business rollback cannot
 * take back a range or a lease that was handed out.
 *
 * <p>At open a store refuses a server that could hand a value out twice after a crash or a failover
 * (a standby, {@code fsync} or {@code synchronous_commit} off), naming the setting, and checks its
 * tables (option {@code schema}: {@code validate}, the default, or {@code create}).
 */
public final class JdbcStores {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcStores.class);

    private JdbcStores() {}

    /**
     * {@code url} as logs and tools may print it: a {@code password=} parameter and the password of
     * a {@code user:password@} part replaced by {@code ***}.
     *
     * @param url a JDBC URL
     * @return the URL without its secrets
     */
    public static String withoutSecrets(String url) {
        return Urls.withoutSecrets(url);
    }

    /**
     * Opens a store on {@code dataSource}; its configuration's options may name the dialect, the
     * schema mode and the tables' names, not a URL.
     *
     * @param config the store's configuration (type {@value JdbcStoreProvider#TYPE})
     * @param dataSource the application's data source
     * @return the open store; closing it leaves the data source open
     * @throws IllegalArgumentException naming the option, if an option is unknown or malformed
     * @throws StoreException if the server is unsafe or a table is missing
     */
    public static Store open(StoreConfig config, DataSource dataSource) {
        JdbcOptions options = JdbcOptions.of(config);
        if (options.url() != null) {
            throw new IllegalArgumentException(
                    config.optionPath("url")
                            + " is set, but the store was given a data source: drop one of them");
        }
        DataSource pool = unwrap(dataSource);
        Duration wait = PoolWait.of(pool);
        if (wait != null && wait.compareTo(config.timeout()) > 0) {
            LOG.warn(
                    "store '{}': its data source waits up to {} for a connection, longer than the"
                            + " store's timeout of {}: each operation borrows on a thread of the"
                            + " store's to end within its timeout, a thread switch each way; set"
                            + " the pool's connection timeout (for HikariCP in Spring Boot"
                            + " spring.datasource.hikari.connection-timeout) to at most the"
                            + " store's timeout",
                    config.name(),
                    StoreConfig.formatDuration(wait),
                    StoreConfig.formatDuration(config.timeout()));
        }
        return open(config, options, pool, StoreClock.server(), () -> {});
    }

    /** Opens a store on the pool its options describe. */
    static Store open(StoreConfig config) {
        JdbcOptions options = JdbcOptions.of(config);
        String url = options.url();
        if (url == null) {
            throw new IllegalArgumentException(
                    config.optionPath("url")
                            + " is required (jdbc:postgresql://host:5432/db), or open the store"
                            + " with JdbcStores.open(config, dataSource)");
        }
        ConnectionPool pool = pool(config, options, url);
        return open(config, options, pool, StoreClock.server(), pool);
    }

    /** The store's own pool on {@code url}, with the credentials its options name. */
    static ConnectionPool pool(StoreConfig config, JdbcOptions options, String url) {
        Properties credentials = new Properties();
        if (options.username() != null) {
            credentials.setProperty("user", options.username());
        }
        if (options.password() != null) {
            credentials.setProperty("password", options.password());
        }
        if (url.startsWith("jdbc:postgresql:") && !url.contains("assumeMinServerVersion")) {
            // PostgreSQL's driver otherwise sends a SET of application_name after every
            // handshake: a round trip per new connection, which a fleet starting together pays
            credentials.setProperty("assumeMinServerVersion", "14");
        }
        return new ConnectionPool(url, credentials, options.poolSize(), config.timeout());
    }

    /** Opens a store whose now is {@code clock}; tests step a test clock back on a real server. */
    static Store open(
            StoreConfig config,
            JdbcOptions options,
            DataSource dataSource,
            StoreClock clock,
            AutoCloseable owned) {
        JdbcCalls calls = new JdbcCalls(dataSource, config.name(), config.timeout());
        Dialect dialect;
        try {
            dialect =
                    calls.autocommit(
                            "open store '" + config.name() + "'", s -> checkServer(s, options));
            Schema schema = new Schema(options.names(), dialect);
            if (options.schema() == Schema.Mode.CREATE) {
                calls.transaction(
                        "create the tables of store '" + config.name() + "'",
                        s -> {
                            schema.create(s);
                            return true;
                        });
            }
            calls.autocommit(
                    "check the tables of store '" + config.name() + "'",
                    s -> {
                        schema.validate(s);
                        return true;
                    });
            Dialect detected = dialect;
            calls.watch(
                    calls.autocommit(
                            "read the identity of store '" + config.name() + "''s database",
                            s ->
                                    DatabaseIdentity.of(
                                            s.connection(), detected, options.acceptFailover())));
        } catch (RuntimeException e) {
            closeQuietly(owned);
            throw e;
        }
        JdbcCalls settling = new JdbcCalls(dataSource, config.name(), config.timeout());
        calls.identity().ifPresent(settling::watch);
        JdbcLog log = new JdbcLog();
        Settlements settlements =
                new Settlements(config.name(), config.timeout(), Ticker.system(), log);
        JdbcStore store =
                new JdbcStore(
                        config.name(),
                        calls,
                        settling,
                        options.names(),
                        dialect,
                        clock,
                        settlements,
                        owned);
        log.openedWith(
                config.name(),
                JdbcStoreProvider.TYPE,
                options.describe(dialect, application(options, dataSource)));
        return ObservedStore.observe(store, StoreObserver.all(List.of(log, config.observer())));
    }

    /** The application's data source, as the open line names it; null for the store's own pool. */
    private static @Nullable String application(JdbcOptions options, DataSource dataSource) {
        return options.url() == null
                ? "the application's " + dataSource.getClass().getName()
                : null;
    }

    /** The database's dialect, after refusing a server that could hand a value out twice. */
    static Dialect checkServer(Session session, JdbcOptions options) throws SQLException {
        Connection c = session.connection();
        String product = c.getMetaData().getDatabaseProductName();
        Dialect detected = Dialect.ofProduct(product);
        if (detected == null) {
            throw new StoreException(
                    "the database is "
                            + product
                            + "; cosid-store-jdbc speaks "
                            + JdbcOptions.DIALECTS
                            + " (PostgreSQL 14+, MySQL 8.0+, MariaDB 10.6+)");
        }
        if (options.dialect() != null && Dialect.ofOption(options.dialect()) != detected) {
            throw new StoreException(
                    "option dialect is " + options.dialect() + " but the database is " + product);
        }
        ServerSafety.Report report = ServerSafety.check(c, detected);
        if (!report.refusals().isEmpty()) {
            throw new StoreException(
                    "refusing to open on this server: " + String.join("; ", report.refusals()));
        }
        report.warnings().forEach(w -> LOG.warn("{}", w));
        return detected;
    }

    /**
     * The data source behind Spring's transaction-aware proxies (any {@code
     * org.springframework.jdbc.datasource} delegating data source), found by name so that this
     * module needs no Spring: a connection from such a proxy would be the caller's transaction.
     */
    static DataSource unwrap(DataSource dataSource) {
        DataSource current = dataSource;
        for (int depth = 0; depth < 8; depth++) {
            if (!current.getClass().getName().startsWith("org.springframework.jdbc.datasource.")) {
                return current;
            }
            try {
                Method target = current.getClass().getMethod("getTargetDataSource");
                Object next = target.invoke(current);
                if (!(next instanceof DataSource inner)) {
                    return current;
                }
                current = inner;
            } catch (ReflectiveOperationException e) {
                return current;
            }
        }
        return current;
    }

    private static void closeQuietly(AutoCloseable owned) {
        try {
            owned.close();
        } catch (Exception e) {
            // the store failed to open; its own pool is closed as well as it can be
        }
    }
}
