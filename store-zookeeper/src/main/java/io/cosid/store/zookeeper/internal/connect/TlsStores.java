package io.cosid.store.zookeeper.internal.connect;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;

/**
 * The store's TLS key and trust stores, loaded before any connection so that a wrong password, a
 * file that is not a key store, or a key store without a private key fails at once, naming the
 * option, instead of surfacing only in the ZooKeeper client's log while the connection never comes.
 */
final class TlsStores {

    private final @Nullable KeyStore keyStore;
    private final char @Nullable [] keyPassword;
    private final KeyStore trustStore;

    private TlsStores(
            @Nullable KeyStore keyStore, char @Nullable [] keyPassword, KeyStore trustStore) {
        this.keyStore = keyStore;
        this.keyPassword = keyPassword;
        this.trustStore = trustStore;
    }

    /**
     * Loads the stores named by the {@code tls.*} options.
     *
     * @param tls the options by key
     * @param optionPath the full configuration key of an option, for messages
     * @throws IllegalArgumentException naming the option when a store cannot be loaded or holds no
     *     key
     */
    static TlsStores load(Map<String, String> tls, Function<String, String> optionPath) {
        @Nullable KeyStore keys = null;
        char[] keyPassword = password(tls.get("tls.keyStore.password"));
        if (tls.containsKey("tls.keyStore.location")) {
            keys = load("tls.keyStore", tls, optionPath);
            if (!hasPrivateKey(keys)) {
                throw new IllegalArgumentException(
                        optionPath.apply("tls.keyStore.location")
                                + " '"
                                + tls.get("tls.keyStore.location")
                                + "' holds no private key: the client has no"
                                + " certificate to show a server that asks for one");
            }
        }
        return new TlsStores(keys, keyPassword, load("tls.trustStore", tls, optionPath));
    }

    /** An SSL context with these stores, as the ZooKeeper client would build it. */
    SSLContext sslContext() throws GeneralSecurityException {
        @Nullable KeyManagerFactory kmf = null;
        if (keyStore != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keyStore, keyPassword);
        }
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trustStore);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static boolean hasPrivateKey(KeyStore store) {
        try {
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    return true;
                }
            }
            return false;
        } catch (KeyStoreException e) {
            throw new IllegalStateException("a loaded key store cannot list its entries", e);
        }
    }

    private static KeyStore load(
            String prefix, Map<String, String> tls, Function<String, String> optionPath) {
        String location = tls.get(prefix + ".location");
        if (location == null) {
            throw new IllegalArgumentException(
                    optionPath.apply(prefix + ".location") + " is required with TLS");
        }
        String type = tls.getOrDefault(prefix + ".type", typeOf(location));
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password(tls.get(prefix + ".password")));
            return store;
        } catch (IOException | GeneralSecurityException e) {
            String cause =
                    e.getCause() != null && e.getCause().getMessage() != null
                            ? e.getMessage() + " (" + e.getCause().getMessage() + ")"
                            : e.getMessage();
            throw new IllegalArgumentException(
                    optionPath.apply(prefix + ".location")
                            + " '"
                            + location
                            + "' cannot be loaded as a "
                            + type
                            + " key store with "
                            + optionPath.apply(prefix + ".password")
                            + ": "
                            + cause,
                    e);
        }
    }

    private static String typeOf(String location) {
        String lower = location.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".jks")) {
            return "JKS";
        }
        return lower.endsWith(".p12") || lower.endsWith(".pfx")
                ? "PKCS12"
                : KeyStore.getDefaultType();
    }

    private static char @Nullable [] password(@Nullable String password) {
        return password == null ? null : password.toCharArray();
    }
}
