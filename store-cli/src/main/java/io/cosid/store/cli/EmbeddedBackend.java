package io.cosid.store.cli;

import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The servers the tool can run itself, for the demo and the {@code server} command. */
enum EmbeddedBackend {
    ZOOKEEPER("zookeeper", 2181),
    POSTGRESQL("postgresql", 5432);

    /** The option's value that names it. */
    final String option;

    /** The port {@code server} listens on unless {@code --port} names another. */
    final int defaultPort;

    EmbeddedBackend(String option, int defaultPort) {
        this.option = option;
        this.defaultPort = defaultPort;
    }

    static EmbeddedBackend parse(String text) {
        for (EmbeddedBackend b : values()) {
            if (b.option.equals(text.toLowerCase(Locale.ROOT))) {
                return b;
            }
        }
        throw new IllegalArgumentException(
                "--backend must be zookeeper or postgresql, got " + text);
    }

    /** Starts the server on {@code port} (0: a free one) with its data in {@code data}. */
    EmbeddedServer start(int port, @Nullable Path data) {
        return this == ZOOKEEPER
                ? EmbeddedZooKeeper.start(port, data)
                : EmbeddedPostgres.start(port, data);
    }

    /** The options a tool command names this server with, as the {@code Try:} line shows. */
    String selection(EmbeddedServer server) {
        return this == ZOOKEEPER
                ? "--connect " + server.address()
                : "--jdbc-url '" + server.address() + "'";
    }

    /**
     * Makes the server ready for the store's commands: on PostgreSQL the store's tables, which
     * every store but one asked to create them refuses to open without.
     */
    void prepare(EmbeddedServer server) {
        if (this == POSTGRESQL) {
            Stores.open(jdbc("cli", server, Duration.ofSeconds(5))).close();
        }
    }

    /** A store named {@code name} on the embedded PostgreSQL, creating its tables if missing. */
    static StoreConfig jdbc(String name, EmbeddedServer server, Duration timeout) {
        return StoreConfig.of(name, "jdbc")
                .withTimeout(timeout)
                .withOption("url", server.address())
                .withOption("schema", "create")
                .withOption("poolSize", "2");
    }
}
