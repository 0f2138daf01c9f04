package io.cosid.store.zookeeper.internal.connect;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.jspecify.annotations.Nullable;

/**
 * Finds out why a client does not connect, for the error a user sees: the ZooKeeper client only
 * logs why it cannot connect (an unknown host, nothing listening, a TLS handshake that fails) and
 * keeps trying. Run only when the connection is not there after a short grace, so a healthy open
 * never pays for it and a plain server never sees the TLS hello that tells a TLS port from a plain
 * one.
 */
public final class ConnectProbe {

    /**
     * What was found for one server of the connect string; {@code certain} when it cannot connect
     * at all.
     */
    record Finding(String server, @Nullable String problem, boolean certain) {}

    private ConnectProbe() {}

    /** Probes every server of the connect string in parallel, each within {@code timeoutMillis}. */
    public static CompletableFuture<List<Finding>> start(
            ZooKeeperOptions options, int timeoutMillis) {
        List<CompletableFuture<Finding>> probes = new ArrayList<>();
        for (String s : ServerAddress.servers(options.connectString())) {
            probes.add(
                    CompletableFuture.supplyAsync(
                            () -> probe(s, options, timeoutMillis),
                            runnable -> {
                                Thread t = new Thread(runnable, "cosid-store-connect-probe");
                                t.setDaemon(true);
                                t.start();
                            }));
        }
        return CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new))
                .thenApply(v -> probes.stream().map(CompletableFuture::join).toList());
    }

    /** One line naming every server's problem, or null when none was found. */
    public static @Nullable String describe(List<Finding> findings) {
        List<String> problems =
                findings.stream().map(Finding::problem).filter(Objects::nonNull).toList();
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    /** Whether no server of the connect string can work, by what the probe found. */
    public static boolean noServerCanWork(List<Finding> findings) {
        return !findings.isEmpty() && findings.stream().allMatch(Finding::certain);
    }

    private static Finding probe(String server, ZooKeeperOptions options, int timeoutMillis) {
        ServerAddress parsed = ServerAddress.parse(server);
        if (parsed == null) {
            return new Finding(server, "'" + server + "' has no valid port", true);
        }
        String host = parsed.host();
        int port = parsed.port();
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return new Finding(server, "unknown host " + host, true);
        }
        boolean tls = !options.tls().isEmpty();
        try {
            Handshake h;
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address, port), timeoutMillis);
                socket.setSoTimeout(Math.min(timeoutMillis, 1000));
                SSLContext context =
                        tls
                                ? TlsStores.load(options.tls(), key -> key).sslContext()
                                : trustingContext();
                h = handshake(socket, context, host, port);
            }
            return judge(server, tls, h, address, port, timeoutMillis);
        } catch (ConnectException e) {
            return new Finding(
                    server, "nothing listens on " + server + " (connection refused)", true);
        } catch (SocketTimeoutException e) {
            return new Finding(
                    server, "no answer from " + server + " within " + timeoutMillis + " ms", false);
        } catch (IOException | GeneralSecurityException e) {
            return new Finding(server, "cannot reach " + server + ": " + e.getMessage(), false);
        }
    }

    /** What a handshake with a reachable server says about the client's TLS setting. */
    private static Finding judge(
            String server,
            boolean tls,
            Handshake h,
            InetAddress address,
            int port,
            int timeoutMillis) {
        if (!tls) {
            // a plain client on a TLS-only port gets nothing but a closed connection: a TLS
            // hello tells
            return h.spokeTls()
                    ? new Finding(
                            server,
                            server
                                    + " speaks TLS: set the option tls.enabled to true"
                                    + " (with tls.trustStore.*)",
                            true)
                    : new Finding(server, null, false);
        }
        if (h.failure() == null) {
            return new Finding(server, null, false);
        }
        if (!h.spokeTls() && answersPlain(address, port, timeoutMillis)) {
            return new Finding(
                    server,
                    server
                            + " does not speak TLS (it answers as a plain ZooKeeper port): set"
                            + " the option tls.enabled to false, or use the server's secure"
                            + " client port",
                    true);
        }
        return new Finding(
                server, "the TLS handshake with " + server + " failed: " + h.failure(), true);
    }

    /**
     * How a TLS handshake went: whether the other side spoke TLS at all (a server that refuses the
     * client's certificate does), and what failed, or null.
     */
    private record Handshake(boolean spokeTls, @Nullable String failure) {}

    /**
     * A TLS handshake on a connected socket, then a short read: a server that refuses the client's
     * certificate (or its absence) says so in an alert right after the handshake.
     */
    private static Handshake handshake(Socket plain, SSLContext context, String host, int port)
            throws IOException {
        try (SSLSocket socket =
                (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
            socket.startHandshake();
            try {
                socket.getInputStream()
                        .read(); // a ZooKeeper server sends nothing before the client speaks
            } catch (SocketTimeoutException quiet) {
                return new Handshake(true, null);
            } catch (SSLException refused) {
                return new Handshake(true, message(refused));
            }
            return new Handshake(true, null);
        } catch (SSLException e) {
            String message = message(e);
            boolean notTls =
                    message.contains("Unsupported or unrecognized SSL message")
                            || message.contains("Remote host terminated the handshake");
            return new Handshake(!notTls, message);
        }
    }

    /**
     * Whether the port answers ZooKeeper's plain {@code srvr} command (any answer, even "not in the
     * whitelist").
     */
    private static boolean answersPlain(InetAddress address, int port, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), timeoutMillis);
            socket.setSoTimeout(Math.min(timeoutMillis, 1000));
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return socket.getInputStream().read() >= 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static SSLContext trustingContext() throws GeneralSecurityException {
        SSLContext anyServer = SSLContext.getInstance("TLS");
        anyServer.init(null, new TrustManager[] {new TrustingManager()}, null);
        return anyServer;
    }

    /** Trusts any server: used only to learn whether a port speaks TLS, never to send data. */
    private static final class TrustingManager implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
