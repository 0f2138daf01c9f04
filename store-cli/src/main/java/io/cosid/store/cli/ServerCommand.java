package io.cosid.store.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code server}: a local ZooKeeper for trying the other commands, in the foreground until Ctrl-C.
 * The same embedded server the demo runs; not for production (one server, no quorum).
 */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = {
            "Run a local ZooKeeper server in the foreground until Ctrl-C, for trying things.",
            "One server on 127.0.0.1, no quorum: not for production. Without --data its data is"
                    + " temporary and removed on exit."
        })
final class ServerCommand implements Callable<Integer> {

    @Option(
            names = "--port",
            defaultValue = "2181",
            description = "The client port on 127.0.0.1 (default 2181).")
    int port;

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "Keep the server's data in DIR (default: a temporary directory).")
    Path data;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--port must be from 1 to 65535, got " + port);
        }
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(port, data);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "cosid-store-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                "ZooKeeper listening on "
                        + server.connectString()
                        + "; data in "
                        + server.dir()
                        + (data == null ? " (temporary: removed on exit)" : " (kept)")
                        + ". Ctrl-C stops it.");
        out.println("Try: ./cosid-store namespaces --connect " + server.connectString());
        out.flush();
        stopped.await();
        return ExitCodes.OK;
    }
}
