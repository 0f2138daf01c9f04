package io.cosid.store.cli;

import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The servers the tool can run itself, for the demo and the {@code server} command. */
enum EmbeddedBackend {
    ZOOKEEPER("zookeeper", 2181) {
        @Override
        EmbeddedServer start(int port, @Nullable Path data) {
            return EmbeddedZooKeeper.start(port, data);
        }

        @Override
        String selection(EmbeddedServer server) {
            return "--connect " + server.address();
        }

        @Override
        void prepare(EmbeddedServer server) {
            // a ZooKeeper store creates its nodes as it goes
        }
    },
    POSTGRESQL("postgresql", 5432) {
        @Override
        EmbeddedServer start(int port, @Nullable Path data) {
            return EmbeddedPostgres.start(port, data);
        }

        @Override
        String selection(EmbeddedServer server) {
            return "--jdbc-url '" + server.address() + "'";
        }

        @Override
        void prepare(EmbeddedServer server) {
            Stores.open(jdbc("cli", server, Duration.ofSeconds(5))).close();
        }
    };

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
    abstract EmbeddedServer start(int port, @Nullable Path data);

    /** The options a tool command names this server with, as the {@code Try:} line shows. */
    abstract String selection(EmbeddedServer server);

    /**
     * Makes the server ready for the store's commands: on PostgreSQL the store's tables, which
     * every store but one asked to create them refuses to open without.
     */
    abstract void prepare(EmbeddedServer server);

    /** A store named {@code name} on the embedded PostgreSQL, creating its tables if missing. */
    static StoreConfig jdbc(String name, EmbeddedServer server, Duration timeout) {
        return StoreConfig.of(name, "jdbc")
                .withTimeout(timeout)
                .withOption("url", server.address())
                .withOption("schema", "create")
                .withOption("poolSize", "2");
    }
}
