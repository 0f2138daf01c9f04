package io.cosid.store.jdbc;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Provider of type {@value #TYPE}: a store on PostgreSQL, MySQL or MariaDB, over a small pool built
 * from options {@code url}, {@code username} and {@code password} (store-jdbc/README.md, "Use"), or
 * on the application's own pool: {@link #open(StoreConfig, Object)}, or {@link
 * JdbcStores#open(StoreConfig, DataSource)}.
 */
public final class JdbcStoreProvider implements StoreProvider {

    /** The type name of this backend. */
    public static final String TYPE = "jdbc";

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public JdbcStoreProvider() {}

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionKeys() {
        return JdbcOptions.KEYS;
    }

    @Override
    public Store open(StoreConfig config) {
        return JdbcStores.open(config);
    }

    /** The application's {@link DataSource} (its pool). */
    @Override
    public Optional<Class<?>> applicationClientType() {
        return Optional.of(DataSource.class);
    }

    /** When the configuration names a {@code url} of its own. */
    @Override
    public boolean connectsByItself(StoreConfig config) {
        return config.options().containsKey("url");
    }

    @Override
    public Store open(StoreConfig config, Object client) {
        if (!(client instanceof DataSource dataSource)) {
            throw new IllegalArgumentException(
                    "a JDBC store opens on a DataSource, not on " + client.getClass().getName());
        }
        return JdbcStores.open(config.withOptionKeysAs(optionKeys()), dataSource);
    }
}
