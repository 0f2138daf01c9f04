package io.cosid.store.jdbc;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Provider of type {@value #TYPE}: a store on PostgreSQL, MySQL or MariaDB, over a small pool built
 * from options {@code url}, {@code username} and {@code password} (store-jdbc/README.md, "Use"). To
 * use the application's own pool, call {@link JdbcStores#open(StoreConfig, DataSource)}.
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
}
