package io.cosid.store.jdbc;

import java.time.Duration;
import java.util.Properties;

/** Pools for tests: the store's own pool, sized for the TCK's most concurrent parts. */
final class TestPools {

    private TestPools() {}

    /** A pool of up to 64 connections to {@code jdbcUrl}, waiting up to 30 s for one. */
    static ConnectionPool pool(String jdbcUrl) {
        return new ConnectionPool(jdbcUrl, new Properties(), 64, Duration.ofSeconds(30));
    }
}
