package io.cosid.store.zookeeper.internal.connect;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One server of a connect string, as the diagnostics that talk to servers directly ({@link
 * ConnectProbe}, {@link ServerVersion}) read it: {@code host[:port]}, port 2181 when none is given.
 */
record ServerAddress(String host, int port) {

    /** The servers of a connect string, without its chroot, as written. */
    static List<String> servers(String connectString) {
        int slash = connectString.indexOf('/');
        String hosts = slash < 0 ? connectString : connectString.substring(0, slash);
        List<String> servers = new ArrayList<>();
        for (String server : hosts.split(",", -1)) {
            String s = server.trim();
            if (!s.isEmpty()) {
                servers.add(s);
            }
        }
        return servers;
    }

    /** The server's host and port, or null when its port is not a number. */
    static @Nullable ServerAddress parse(String server) {
        int colon = server.lastIndexOf(':');
        String host = colon > 0 ? server.substring(0, colon) : server;
        try {
            return new ServerAddress(
                    host, colon > 0 ? Integer.parseInt(server.substring(colon + 1)) : 2181);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
