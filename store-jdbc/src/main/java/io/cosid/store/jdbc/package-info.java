/**
 * The JDBC backend of cosid-store (issue 35, under construction): so far the range table of
 * PostgreSQL and its one-statement acquire ({@link io.cosid.store.jdbc.RangeTable}). Not yet a
 * backend {@code Stores.open} can find.
 */
@NullMarked
package io.cosid.store.jdbc;

import org.jspecify.annotations.NullMarked;
