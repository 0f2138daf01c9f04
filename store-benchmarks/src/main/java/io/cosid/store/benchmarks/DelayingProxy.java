package io.cosid.store.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy on loopback that delivers every chunk of bytes, in either direction, a fixed time
 * after it arrived, in order: a network whose one-way latency is that delay, so that a round trip
 * costs what it costs between machines rather than on loopback. Each contender of a benchmark goes
 * through the same proxy, so each round trip of each one pays the same.
 */
final class DelayingProxy implements AutoCloseable {

    private static final Pattern HOST_PORT = Pattern.compile("//([^/:?]+):(\\d+)");

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final long delayNanos;

    /** A chunk of bytes and when it may be delivered; an empty chunk ends the direction. */
    private record Chunk(byte[] bytes, long dueNanos) {}

    private DelayingProxy(InetSocketAddress target, long delayNanos) throws IOException {
        this.target = target;
        this.delayNanos = delayNanos;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "delaying-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /**
     * A proxy in front of the server {@code jdbcUrl} names, delaying each direction by {@code
     * delayMicros}.
     */
    static DelayingProxy before(String jdbcUrl, long delayMicros) throws IOException {
        Matcher m = HOST_PORT.matcher(jdbcUrl);
        if (!m.find()) {
            throw new IllegalArgumentException("no //host:port in " + jdbcUrl);
        }
        return new DelayingProxy(
                new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2))),
                TimeUnit.MICROSECONDS.toNanos(delayMicros));
    }

    /** {@code jdbcUrl} with its host and port replaced by the proxy's. */
    String through(String jdbcUrl) {
        return HOST_PORT.matcher(jdbcUrl).replaceFirst("//127.0.0.1:" + listener.getLocalPort());
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(target);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                direction(client, server);
                direction(server, client);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Reads {@code from} and writes to {@code to} each chunk once its delay has passed. */
    private void direction(Socket from, Socket to) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        daemon(() -> read(from, queue));
        daemon(() -> write(queue, to));
    }

    private void read(Socket from, BlockingQueue<Chunk> queue) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream()) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                queue.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
            }
        } catch (IOException e) {
            // the connection ended
        }
        queue.add(new Chunk(new byte[0], 0));
    }

    private static void write(BlockingQueue<Chunk> queue, Socket to) {
        try (OutputStream out = to.getOutputStream()) {
            while (true) {
                Chunk c = queue.take();
                if (c.bytes().length == 0) {
                    return;
                }
                for (long wait = c.dueNanos() - System.nanoTime();
                        wait > 0;
                        wait = c.dueNanos() - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                out.write(c.bytes());
                out.flush();
            }
        } catch (IOException e) {
            // the other side ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                to.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "delaying-proxy");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
