package io.cosid.store.tck.net;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy that adds a fixed one-way latency in each direction, as a server in another rack or
 * zone would: every byte reaches the other side {@code delay} after the proxy read it, in order,
 * and bytes read later are not held up by bytes still waiting (a delay line, not a pause), so a
 * client's throughput is bounded by the round trip as it would be over a longer wire. Any TCP
 * protocol: a ZooKeeper client port, a database's.
 */
public final class DelayingProxy implements AutoCloseable {

    private static final byte[] END = new byte[0];

    private record Chunk(long dueNanos, byte[] bytes) {}

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final long delayNanos;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * Starts a proxy on a free loopback port.
     *
     * @param targetPort the server's client port on 127.0.0.1
     * @param oneWay the latency added to each direction
     */
    public DelayingProxy(int targetPort, Duration oneWay) {
        if (oneWay.isNegative()) {
            throw new IllegalArgumentException("oneWay must be zero or more, not " + oneWay);
        }
        try {
            this.listener = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        this.delayNanos = oneWay.toNanos();
        Thread acceptor = new Thread(this::accept, "delaying-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * The address clients connect to.
     *
     * @return 127.0.0.1:port
     */
    public String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    @Override
    public void close() {
        closed = true;
        close(listener);
        sockets.forEach(DelayingProxy::close);
        sockets.clear();
    }

    private void accept() {
        ProxyConnections.accept(
                listener,
                target,
                sockets,
                () -> closed,
                (client, server) -> {
                    direction("up", client, server);
                    direction("down", server, client);
                });
    }

    /** One direction: a reader that stamps what it reads, a writer that sends it when due. */
    private void direction(String name, Socket from, Socket to) {
        BlockingQueue<Chunk> line = new LinkedBlockingQueue<>();
        daemon(
                "delaying-proxy-read-" + name,
                () -> {
                    byte[] buffer = new byte[64 * 1024];
                    try (InputStream in = from.getInputStream()) {
                        for (int n; (n = in.read(buffer)) >= 0; ) {
                            line.add(
                                    new Chunk(
                                            System.nanoTime() + delayNanos,
                                            Arrays.copyOf(buffer, n)));
                        }
                    } catch (IOException e) {
                        // closed or reset: the writer closes the other side once it has caught up
                    } finally {
                        line.add(new Chunk(System.nanoTime() + delayNanos, END));
                    }
                });
        daemon(
                "delaying-proxy-write-" + name,
                () -> {
                    try (OutputStream out = to.getOutputStream()) {
                        while (true) {
                            Chunk c = line.take();
                            // the chunk's time on the wire; a delay line, so this waits for a time,
                            // not for a condition
                            for (long left = c.dueNanos() - System.nanoTime();
                                    left > 0;
                                    left = c.dueNanos() - System.nanoTime()) {
                                LockSupport.parkNanos(left);
                            }
                            if (c.bytes() == END) {
                                return;
                            }
                            out.write(c.bytes());
                            out.flush();
                        }
                    } catch (IOException e) {
                        // the other side went away
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        close(from);
                        close(to);
                    }
                });
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private static void close(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
