import io.cosid.store.StoreProvider;
import io.cosid.store.jdbc.JdbcStoreProvider;

/**
 * The JDBC backend of cosid-store: ranges and slot leases in PostgreSQL, MySQL or MariaDB tables,
 * type {@code jdbc}.
 */
module io.cosid.store.jdbc {
    requires transitive io.cosid.store;
    requires transitive java.sql;
    requires static transitive org.jspecify;
    requires org.slf4j;

    exports io.cosid.store.jdbc;

    provides StoreProvider with
            JdbcStoreProvider;
}
