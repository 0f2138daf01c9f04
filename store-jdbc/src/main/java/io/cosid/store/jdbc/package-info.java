/**
 * The JDBC backend of cosid-store (issue 35, under construction): so far ranges in a PostgreSQL
 * table, one statement per write ({@code JdbcRangeStore}, {@code RangeTable}). Not yet a backend
 * {@code Stores.open} can find.
 */
@NullMarked
package io.cosid.store.jdbc;

import org.jspecify.annotations.NullMarked;
