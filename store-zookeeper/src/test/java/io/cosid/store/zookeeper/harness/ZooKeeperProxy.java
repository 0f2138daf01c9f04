package io.cosid.store.zookeeper.harness;

import io.cosid.store.tck.net.ProxyConnections;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy between clients and one ZooKeeper server that understands just enough of ZooKeeper's
 * framing (a 4-byte length, then {@code xid,type} on requests and {@code xid,zxid,err} on replies,
 * after the unframed-header connect handshake) to cut a client off at the worst moment: after the
 * server applied a chosen write, before its reply arrives; or before the server got it, so that the
 * client cannot tell the two apart; or to hold a reply back while others act. Also blackholes
 * (stops forwarding) and resets connections.
 */
public final class ZooKeeperProxy implements AutoCloseable {

    /** ZooKeeper's request opcodes this proxy is used with. */
    public static final int SET_DATA = 5;

    /** A write multi (read-only multis are opcode 22). */
    public static final int MULTI = 14;

    /** create2, as the store's range creates use. */
    public static final int CREATE2 = 15;

    /** A read-only multi, as the store's reads of a key with its line are. */
    public static final int READ_MULTI = 22;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger dropNextOf = new AtomicInteger(-1);
    private final AtomicInteger loseNextOf = new AtomicInteger(-1);
    private final AtomicInteger dropped = new AtomicInteger();
    private final AtomicInteger holdNextOf = new AtomicInteger(-1);

    /** Whether a reply is held back until {@link #release()} (guarded by {@link #gate}). */
    private boolean holding;

    private volatile boolean blackhole;

    /** What a blackholed pump waits on until forwarding resumes or the proxy closes. */
    private final Object gate = new Object();

    private volatile boolean blackholeOnDrop;
    private volatile boolean closed;

    /**
     * Starts a proxy on a free loopback port.
     *
     * @param targetPort the server's client port on 127.0.0.1
     */
    public ZooKeeperProxy(int targetPort) {
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        Thread acceptor = new Thread(this::accept, "zk-proxy-accept");
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

    /**
     * Lets the next request with this opcode through to the server, then cuts that client's
     * connection instead of delivering the reply: the write is applied, the client sees
     * ConnectionLoss.
     *
     * @param opcode e.g. {@link #SET_DATA} or {@link #MULTI}
     */
    public void dropReplyToNext(int opcode) {
        dropNextOf.set(opcode);
    }

    /**
     * Cuts the connection of the client that sends the next request with this opcode, instead of
     * forwarding it: the server never sees the write, and the client sees ConnectionLoss just as
     * after {@link #dropReplyToNext(int)}. Counted in {@link #dropped()}.
     *
     * @param opcode e.g. {@link #SET_DATA} or {@link #MULTI}
     */
    public void loseNextRequest(int opcode) {
        loseNextOf.set(opcode);
    }

    /**
     * As {@link #dropReplyToNext(int)}, and blackholes the proxy at the moment the reply is
     * dropped, so that the client cannot reconnect (and read back) until {@link #blackhole(boolean)
     * blackhole(false)}: meanwhile other clients, connected to the server directly, can act on what
     * the write left behind.
     *
     * @param opcode e.g. {@link #SET_DATA} or {@link #MULTI}
     */
    public void dropReplyToNextThenBlackhole(int opcode) {
        blackholeOnDrop = true;
        dropNextOf.set(opcode);
    }

    /**
     * Lets the next request with this opcode through to the server and holds its reply (and every
     * later reply to that client) until {@link #release()}: the server applied the request as of
     * now, and the client learns of it only after whatever the test does meanwhile.
     *
     * @param opcode e.g. {@link #READ_MULTI}
     */
    public void holdReplyToNext(int opcode) {
        holdNextOf.set(opcode);
    }

    /**
     * Whether the reply asked for by {@link #holdReplyToNext(int)} has arrived and is held.
     *
     * @return true while it is held
     */
    public boolean holding() {
        synchronized (gate) {
            return holding;
        }
    }

    /** Delivers a held reply and what came after it, and holds nothing more. */
    public void release() {
        synchronized (gate) {
            holding = false;
            gate.notifyAll();
        }
    }

    /**
     * How many replies (and requests) were dropped so far.
     *
     * @return the count
     */
    public int dropped() {
        return dropped.get();
    }

    /**
     * Stops or resumes forwarding in both directions, without closing anything.
     *
     * @param on true to stop forwarding
     */
    public void blackhole(boolean on) {
        synchronized (gate) {
            blackhole = on;
            gate.notifyAll();
        }
    }

    /** Closes every open connection, as a reset would. */
    public void resetAll() {
        for (Socket s : sockets) {
            close(s);
        }
        sockets.clear();
    }

    @Override
    public void close() {
        synchronized (gate) {
            closed = true;
            gate.notifyAll();
        }
        close(listener);
        resetAll();
    }

    private void accept() {
        ProxyConnections.accept(
                listener,
                target,
                sockets,
                () -> closed,
                (client, server) -> {
                    Set<Integer> doomed = ConcurrentHashMap.newKeySet();
                    Set<Integer> held = ConcurrentHashMap.newKeySet();
                    pump("zk-proxy-up", client, server, true, doomed, held);
                    pump("zk-proxy-down", server, client, false, doomed, held);
                });
    }

    private void pump(
            String name,
            Socket from,
            Socket to,
            boolean requests,
            Set<Integer> doomed,
            Set<Integer> held) {
        Thread t =
                new Thread(
                        () -> {
                            try (DataInputStream in = new DataInputStream(from.getInputStream());
                                    DataOutputStream out =
                                            new DataOutputStream(to.getOutputStream())) {
                                boolean handshake = true;
                                while (true) {
                                    int length = in.readInt();
                                    byte[] frame = new byte[length];
                                    in.readFully(frame);
                                    if (blackhole) {
                                        awaitOpen();
                                    }
                                    if (!handshake && frame.length >= 8) {
                                        ByteBuffer b = ByteBuffer.wrap(frame);
                                        int xid = b.getInt();
                                        if (requests) {
                                            int type = b.getInt();
                                            if (loseNextOf.compareAndSet(type, -1)) {
                                                dropped.incrementAndGet();
                                                close(from);
                                                close(to);
                                                return;
                                            }
                                            if (dropNextOf.compareAndSet(type, -1)) {
                                                doomed.add(xid);
                                            }
                                            if (holdNextOf.compareAndSet(type, -1)) {
                                                held.add(xid);
                                            }
                                        } else if (held.remove(xid)) {
                                            awaitRelease();
                                        } else if (doomed.remove(xid)) {
                                            if (blackholeOnDrop) {
                                                blackhole = true;
                                                blackholeOnDrop = false;
                                            }
                                            dropped.incrementAndGet();
                                            close(from);
                                            close(to);
                                            return;
                                        }
                                    }
                                    handshake = false;
                                    out.writeInt(length);
                                    out.write(frame);
                                    out.flush();
                                }
                            } catch (EOFException e) {
                                // the other side closed
                            } catch (IOException e) {
                                // reset or closed by the proxy
                            } finally {
                                close(from);
                                close(to);
                            }
                        },
                        name);
        t.setDaemon(true);
        t.start();
    }

    /**
     * Holds a frame while the proxy is blackholed (parked, not spinning: the tests share two
     * cores).
     */
    private void awaitOpen() throws IOException {
        synchronized (gate) {
            while (blackhole && !closed) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while blackholed");
                }
            }
        }
    }

    /** Holds a reply until {@link #release()} or the proxy closes (parked, not spinning). */
    private void awaitRelease() throws IOException {
        synchronized (gate) {
            holding = true;
            gate.notifyAll();
            while (holding && !closed) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while holding a reply");
                }
            }
        }
    }

    private static void close(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
