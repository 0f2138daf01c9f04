package io.cosid.store.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code server}: a local ZooKeeper or PostgreSQL for trying the other commands, in the foreground
 * until Ctrl-C. The same embedded servers the demo runs; not for production (one server, no quorum
 * or standby, PostgreSQL trusting every local connection).
 */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = {
            "Run a local ZooKeeper or PostgreSQL server in the foreground until Ctrl-C, for trying"
                    + " things.",
            "One server on 127.0.0.1: not for production. Without --data its data is temporary"
                    + " and removed on exit."
        })
final class ServerCommand implements Callable<Integer> {

    @Option(
            names = "--backend",
            paramLabel = "zookeeper|postgresql",
            defaultValue = "zookeeper",
            description =
                    "The server to run (default zookeeper); postgresql runs PostgreSQL from the"
                            + " programs the tool carries (Linux x86-64).")
    String backend;

    @Option(
            names = "--port",
            description =
                    "The port on 127.0.0.1 (default 2181 for ZooKeeper, 5432 for PostgreSQL).")
    @Nullable Integer port;

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "Keep the server's data in DIR (default: a temporary directory).")
    @Nullable Path data;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        EmbeddedBackend kind = EmbeddedBackend.parse(backend);
        int listen = port == null ? kind.defaultPort : port;
        if (listen < 1 || listen > 65535) {
            throw new IllegalArgumentException("--port must be from 1 to 65535, got " + listen);
        }
        EmbeddedServer server = kind.start(listen, data);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "cosid-store-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        kind.prepare(server);
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                server.product()
                        + " listening on "
                        + server.address()
                        + "; data in "
                        + server.dir()
                        + (data == null ? " (temporary: removed on exit)" : " (kept)")
                        + ". Ctrl-C stops it.");
        out.println("Try: ./cosid-store namespaces " + kind.selection(server));
        out.flush();
        stopped.await();
        return ExitCodes.OK;
    }
}
