package io.cosid.store.zookeeper.harness;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates for a TLS-only test server, made with the JDK's own {@code keytool}: a server and a
 * client key pair (PKCS12, SAN 127.0.0.1 and localhost) and one trust store that trusts both.
 */
public record TlsMaterial(
        Path serverKeyStore, Path clientKeyStore, Path trustStore, String password) {

    /**
     * Generates fresh material in a directory.
     *
     * @param dir where the stores go
     * @return the material
     */
    public static TlsMaterial generate(Path dir) {
        String password = "cosid-test-secret";
        Path server = dir.resolve("server.p12");
        Path client = dir.resolve("client.p12");
        Path trust = dir.resolve("trust.p12");
        for (String alias : List.of("server", "client")) {
            Path store = alias.equals("server") ? server : client;
            keytool(
                    "-genkeypair",
                    "-alias",
                    alias,
                    "-keyalg",
                    "RSA",
                    "-keysize",
                    "2048",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "SAN=ip:127.0.0.1,dns:localhost",
                    "-validity",
                    "3",
                    "-keystore",
                    store.toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    password,
                    "-keypass",
                    password);
            Path cert = dir.resolve(alias + ".crt");
            keytool(
                    "-exportcert",
                    "-alias",
                    alias,
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    password,
                    "-file",
                    cert.toString());
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    alias,
                    "-file",
                    cert.toString(),
                    "-keystore",
                    trust.toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    password);
        }
        return new TlsMaterial(server, client, trust, password);
    }

    /**
     * An SSL context with the client's key and the shared trust store, for four-letter words over
     * TLS.
     *
     * @return the context
     */
    public SSLContext clientContext() {
        try (InputStream k = new FileInputStream(clientKeyStore.toFile());
                InputStream t = new FileInputStream(trustStore.toFile())) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(k, password.toCharArray());
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(t, password.toCharArray());
            KeyManagerFactory kmf =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, password.toCharArray());
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(
                        "keytool " + String.join(" ", args) + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static boolean exists(Path p) {
        return Files.exists(p);
    }
}
