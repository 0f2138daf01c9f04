/**
 * The JDBC backend of cosid-store, type {@code jdbc}: ranges and slot leases in tables of
 * PostgreSQL, MySQL or MariaDB ({@link io.cosid.store.jdbc.JdbcStores} on an application's data
 * source, {@link io.cosid.store.jdbc.JdbcStoreProvider} on a pool of its own). Everything else is
 * package-private; store-jdbc/README.md says how it works.
 */
@NullMarked
package io.cosid.store.jdbc;

import org.jspecify.annotations.NullMarked;
