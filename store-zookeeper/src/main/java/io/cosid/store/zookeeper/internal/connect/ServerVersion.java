package io.cosid.store.zookeeper.internal.connect;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A server's version for an error message, asked with ZooKeeper's {@code srvr} command (allowed by
 * default since 3.5). Only on a failure path: it opens a plain socket, which a TLS-only port or a
 * server that disallows {@code srvr} does not answer.
 */
public final class ServerVersion {

    private static final int TIMEOUT_MILLIS = 2000;

    private ServerVersion() {}

    /** "version 3.5.10" of the first server that says, or "version unknown". */
    public static String describe(String connectString) {
        for (String server : ServerAddress.servers(connectString)) {
            String version = ask(server);
            if (version != null) {
                return "version " + version;
            }
        }
        return "version unknown: it does not answer srvr";
    }

    private static @Nullable String ask(String server) {
        ServerAddress address = ServerAddress.parse(server);
        if (address == null) {
            return null;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.host(), address.port()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            BufferedReader in =
                    new BufferedReader(
                            new InputStreamReader(
                                    socket.getInputStream(), StandardCharsets.US_ASCII));
            String first = in.readLine();
            String prefix = "Zookeeper version: ";
            if (first != null && first.startsWith(prefix)) {
                String rest = first.substring(prefix.length());
                int dash = rest.indexOf('-');
                return dash < 0 ? rest.trim() : rest.substring(0, dash);
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
