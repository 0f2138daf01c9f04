package io.cosid.store.cli;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/** Whether two ZooKeeper connect strings lead to the same ensemble, as far as their text tells. */
final class Ensembles {

    private static final String DEFAULT_PORT = "2181";

    private Ensembles() {}

    /**
     * Whether {@code a} and {@code b} name a server in common with the same chroot suffix (paths
     * then mean the same nodes): hosts compared without case, {@code localhost} as {@code
     * 127.0.0.1}, a missing port as 2181.
     */
    static boolean overlap(String a, String b) {
        if (!chroot(a).equals(chroot(b))) {
            return false;
        }
        Set<String> servers = servers(a);
        servers.retainAll(servers(b));
        return !servers.isEmpty();
    }

    private static String chroot(String connectString) {
        int slash = connectString.indexOf('/');
        return slash < 0 ? "" : connectString.substring(slash).replaceAll("/+$", "");
    }

    private static Set<String> servers(String connectString) {
        int chroot = connectString.indexOf('/');
        String list = chroot < 0 ? connectString : connectString.substring(0, chroot);
        Set<String> servers = new HashSet<>();
        for (String server : list.split(",", -1)) {
            String s = server.trim().toLowerCase(Locale.ROOT);
            if (s.isEmpty()) {
                continue;
            }
            int colon = s.lastIndexOf(':');
            String host = colon < 0 ? s : s.substring(0, colon);
            String port = colon < 0 ? DEFAULT_PORT : s.substring(colon + 1);
            servers.add((host.equals("localhost") ? "127.0.0.1" : host) + ":" + port);
        }
        return servers;
    }
}
