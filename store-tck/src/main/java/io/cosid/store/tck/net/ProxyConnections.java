package io.cosid.store.tck.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

/**
 * The accept loop the test proxies share, whatever the protocol: each client connection paired with
 * one to the server.
 */
public final class ProxyConnections {

    private ProxyConnections() {}

    /**
     * Accepts clients until the proxy is closed: connects each to {@code target} (with Nagle off on
     * both sockets, as ZooKeeper's and the databases' own clients and servers have it), remembers
     * both sockets in {@code open} so that the proxy can close them, and hands the pair to {@code
     * forward}. A server that refuses a connection fails that client's connection alone.
     *
     * @param listener where clients connect
     * @param target the server
     * @param open where both sockets of each pair are kept
     * @param closed whether the proxy is closed: the loop ends then
     * @param forward what forwards one pair, client first (it starts its own threads)
     */
    public static void accept(
            ServerSocket listener,
            InetSocketAddress target,
            List<Socket> open,
            BooleanSupplier closed,
            BiConsumer<Socket, Socket> forward) {
        while (!closed.getAsBoolean()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(target, 2000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                open.add(client);
                open.add(server);
                forward.accept(client, server);
            } catch (IOException e) {
                if (closed.getAsBoolean()) {
                    return;
                }
            }
        }
    }
}
