package io.cosid.store.zookeeper.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback listener that accepts connections and never sends a byte: to a ZooKeeper client it is
 * a server stopped with SIGSTOP, or a hung host. Closing it closes what it accepted.
 */
public final class SilentListener implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    /** Listens on a free loopback port. */
    public SilentListener() {
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on loopback", e);
        }
        Thread acceptor =
                new Thread(
                        () -> {
                            try {
                                while (true) {
                                    accepted.add(listener.accept());
                                }
                            } catch (IOException closed) {
                                // closed: the test is over
                            }
                        },
                        "silent-listener");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * The listener as a connect string.
     *
     * @return {@code 127.0.0.1:port}
     */
    public String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /**
     * Whether a client has connected.
     *
     * @return true once a connection was accepted
     */
    public boolean connected() {
        return !accepted.isEmpty();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : accepted) {
            s.close();
        }
    }
}
