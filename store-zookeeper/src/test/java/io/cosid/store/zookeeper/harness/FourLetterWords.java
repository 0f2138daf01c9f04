package io.cosid.store.zookeeper.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/** ZooKeeper's four-letter words over a plain socket (the machine has no nc). */
public final class FourLetterWords {

    private static final Pattern MODE = Pattern.compile("Mode: (\\w+)");
    private static final Pattern ZXID = Pattern.compile("Zxid: 0x([0-9a-f]+)");

    private FourLetterWords() {}

    /**
     * Sends a command and reads the whole answer.
     *
     * @param port the client port on 127.0.0.1
     * @param command e.g. srvr
     * @return the answer, or empty when the server does not answer
     */
    public static Optional<String> send(int port, String command) {
        return send(port, command, null);
    }

    /**
     * Sends a command over TLS when a context is given.
     *
     * @param port the client port on 127.0.0.1
     * @param command e.g. srvr
     * @param tls the client's SSL context, or null for plain TCP
     * @return the answer, or empty when the server does not answer
     */
    public static Optional<String> send(int port, String command, SSLContext tls) {
        try (Socket socket = tls == null ? new Socket() : tls.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(command.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The server's mode from {@code srvr}: standalone, leader or follower. {@code ruok} answers
     * before the server serves, so readiness is judged by this.
     *
     * @param port the client port
     * @return the mode, or empty while the server does not serve
     */
    public static Optional<String> mode(int port) {
        return mode(port, null);
    }

    /**
     * The server's mode over TLS.
     *
     * @param port the secure client port
     * @param tls the client's SSL context
     * @return the mode, or empty while the server does not serve
     */
    public static Optional<String> mode(int port, SSLContext tls) {
        return send(port, "srvr", tls)
                .map(MODE::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1));
    }

    /**
     * The last zxid the server applied, from {@code srvr}.
     *
     * @param port the client port
     * @return the zxid
     */
    public static long zxid(int port) {
        String answer =
                send(port, "srvr")
                        .orElseThrow(() -> new IllegalStateException("no answer on " + port));
        Matcher m = ZXID.matcher(answer);
        if (!m.find()) {
            throw new IllegalStateException("no Zxid in srvr answer: " + answer);
        }
        return Long.parseLong(m.group(1), 16);
    }
}
