package io.cosid.store.jdbc.harness;

import io.cosid.store.tck.net.ProxyConnections;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A TCP proxy in front of a PostgreSQL server that cuts a connection at a chosen message, as a
 * network that fails mid-request does: the next client message holding a marker (say {@code
 * COMMIT}) is either delivered, its reply dropped and the client's connection closed (the write
 * landed, the client cannot know), or not delivered at all (the write never landed, the client
 * cannot know either). Use URLs with {@code prepareThreshold=0}, so that every statement's text
 * crosses the wire.
 */
public final class CuttingProxy implements AutoCloseable {

    /** What becomes of the message that holds the marker. */
    public enum Cut {
        /** Delivered to the server; its reply dropped; the client's connection closed. */
        AFTER_DELIVERY,
        /** Dropped; both connections closed. */
        BEFORE_DELIVERY,
        /**
         * Delivered to the server; its reply, and all the connection's later ones, held back: the
         * connection stays open and silent, as behind a network that stopped, until the client
         * gives up on it.
         */
        REPLY_HELD
    }

    private record Armed(String marker, Cut cut) {}

    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicReference<@Nullable Armed> armed = new AtomicReference<>();
    private volatile CountDownLatch fired = new CountDownLatch(1);

    /**
     * Starts a proxy to {@code targetPort} on the loopback address.
     *
     * @param targetPort the server's port
     */
    public CuttingProxy(int targetPort) {
        this.targetPort = targetPort;
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread accept = new Thread(this::accept, "cutting-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /**
     * The proxy's port.
     *
     * @return the port clients connect to
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Cuts the connection that next sends a message holding {@code marker}, once.
     *
     * @param marker text of the message (a statement's text or a part of it)
     * @param cut what becomes of that message
     */
    public void cutNext(String marker, Cut cut) {
        fired = new CountDownLatch(1);
        armed.set(new Armed(marker, cut));
    }

    /**
     * Whether the armed cut happened.
     *
     * @return true once a connection was cut
     */
    public boolean fired() {
        return fired.getCount() == 0;
    }

    private void accept() {
        ProxyConnections.accept(
                listener,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort),
                sockets,
                listener::isClosed,
                (client, server) -> {
                    Link link = new Link(client, server);
                    start(link::clientToServer, "cutting-proxy-up");
                    start(link::serverToClient, "cutting-proxy-down");
                });
    }

    private static void start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    /** One client connection and its connection to the server. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private volatile boolean dropReplies;
        private volatile boolean holdReplies;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void clientToServer() {
            byte[] buffer = new byte[65536];
            try (InputStream in = client.getInputStream();
                    OutputStream out = server.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    Armed a = armed.get();
                    if (a != null
                            && new String(buffer, 0, n, StandardCharsets.ISO_8859_1)
                                    .contains(a.marker())
                            && armed.compareAndSet(a, null)) {
                        if (a.cut() == Cut.BEFORE_DELIVERY) {
                            // counted first: the client learns of the cut as the socket closes
                            fired.countDown();
                            closeQuietly(client);
                            closeQuietly(server);
                            return;
                        }
                        if (a.cut() == Cut.REPLY_HELD) {
                            holdReplies = true;
                        } else {
                            dropReplies = true;
                        }
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed: the other pump ends too
            }
            if (!dropReplies) {
                closeQuietly(server);
            }
        }

        void serverToClient() {
            byte[] buffer = new byte[65536];
            try (InputStream in = server.getInputStream();
                    OutputStream out = client.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (holdReplies) {
                        fired.countDown(); // the server answered; nobody hears of it
                        continue;
                    }
                    if (dropReplies) {
                        // the server answered the marked message: it was processed; the client
                        // never hears of it
                        fired.countDown(); // before the client can learn of the cut
                        closeQuietly(client);
                        closeQuietly(server);
                        return;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            }
            closeQuietly(client);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(CuttingProxy::closeQuietly);
    }
}
