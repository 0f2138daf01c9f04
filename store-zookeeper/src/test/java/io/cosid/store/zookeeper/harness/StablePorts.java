package io.cosid.store.zookeeper.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports that stay free while their server is down, for members that are killed and started
 * again on the same ports.
 *
 * <p>A port from {@code new ServerSocket(0)} lies in the kernel's ephemeral range, so while its
 * member is dead the kernel may give it to any outgoing connection, such as a client reconnecting
 * to another member; the restarted member then cannot bind it and exits. Ports below the ephemeral
 * range are never handed out that way. Each port is given out once per JVM, and test JVMs that run
 * side by side (surefire's forks, numbered by {@code cosid.test.fork} of {@code cosid.test.forks})
 * take ports of their own residue, so that one fork never binds a port another fork's member is
 * waiting to be restarted on.
 */
final class StablePorts {

    /** The lowest port tried: above the well-known and most registered service ports. */
    private static final int LOWEST = 10_000;

    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    /** How many test JVMs run side by side, and which of them (0-based) this is. */
    private static final int FORKS = Math.max(1, Integer.getInteger("cosid.test.forks", 1));

    private static final int FORK =
            Math.floorMod(Integer.getInteger("cosid.test.fork", 1) - 1, FORKS);

    private StablePorts() {}

    /**
     * A loopback port that is free now and outside the ephemeral range.
     *
     * @return the port
     */
    static int take() {
        int ephemeralLow = ephemeralLow();
        if (ephemeralLow - LOWEST < 1_000) {
            // no room below the ephemeral range on this machine: the kernel's choice is all we have
            return anyFree();
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int tries = 0; tries < 1_000 * FORKS; tries++) {
            int port = random.nextInt(LOWEST, ephemeralLow);
            if (port % FORKS == FORK && !GIVEN.contains(port) && isFree(port) && GIVEN.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException(
                "no free loopback port between " + LOWEST + " and " + ephemeralLow);
    }

    /** The first port of the kernel's ephemeral range; Linux's default when it cannot be read. */
    static int ephemeralLow() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        // read line-wise: Files.readString trusts the size /proc reports and may stop early
        try (BufferedReader reader = Files.newBufferedReader(range, StandardCharsets.US_ASCII)) {
            String text = String.valueOf(reader.readLine()).strip();
            int end = 0;
            while (end < text.length() && Character.isDigit(text.charAt(end))) {
                end++;
            }
            return Integer.parseInt(text.substring(0, end));
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int anyFree() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
