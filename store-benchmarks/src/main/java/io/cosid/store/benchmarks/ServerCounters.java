package io.cosid.store.benchmarks;

import io.cosid.store.zookeeper.harness.FourLetterWords;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests as the server counts them ({@code srvr}: packets received), so that round trips per
 * operation are counted the same way for every contender, ours and Curator's alike.
 */
final class ServerCounters {

    private static final Pattern RECEIVED = Pattern.compile("Received: (\\d+)");

    private final int port;
    private final long ownCost;

    ServerCounters(int port) {
        this.port = port;
        // asking costs something too: measure what one srvr adds to the count, and leave it out of
        // every delta
        long first = received();
        this.ownCost = received() - first;
    }

    /**
     * Requests the server received since {@code before} (a {@link #received()} value), this reading
     * left out.
     */
    long since(long before) {
        return received() - before - ownCost;
    }

    long received() {
        String srvr =
                FourLetterWords.send(port, "srvr")
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "the server on port "
                                                        + port
                                                        + " does not answer srvr"));
        Matcher m = RECEIVED.matcher(srvr);
        if (!m.find()) {
            throw new IllegalStateException("no 'Received' count in srvr's answer: " + srvr);
        }
        return Long.parseLong(m.group(1));
    }
}
