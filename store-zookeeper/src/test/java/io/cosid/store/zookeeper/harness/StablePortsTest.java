package io.cosid.store.zookeeper.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Stable ports: a restarted member finds its ports free")
class StablePortsTest {

    @Test
    @DisplayName("ports lie below the kernel's ephemeral range, are bindable, and are given once")
    void belowEphemeralRangeAndDistinct() throws IOException {
        int ephemeralLow = StablePorts.ephemeralLow();
        assertThat(ephemeralLow).as("the ephemeral range's first port").isGreaterThan(1024);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            int port = StablePorts.take();
            assertThat(port).isLessThan(ephemeralLow);
            assertThat(seen.add(port)).as("port %d given twice", port).isTrue();
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
