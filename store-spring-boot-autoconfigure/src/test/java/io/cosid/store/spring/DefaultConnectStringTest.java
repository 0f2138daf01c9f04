package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A ZooKeeper store without a connectString in an application without a CuratorFramework bean means
 * the backend's default, localhost:2181: easy to mean otherwise, so the starter says once that the
 * store connects by itself, and the store says once, before connecting, which default it took and
 * the key to set.
 */
@ExtendWith(OutputCaptureExtension.class)
@DisplayName("A ZooKeeper store with neither a connectString nor an application client")
class DefaultConnectStringTest {

    @Test
    @DisplayName("with client options but no connectString, the same warning")
    void warnsWithClientOptions(CapturedOutput output) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigs.all())
                .withPropertyValues(
                        "cosid.stores.audit.type=zookeeper",
                        "cosid.stores.audit.options.blockUntilConnectedWait=1s")
                .run(
                        context -> {
                            // whether it then reaches a server is not the point here
                        });

        assertThat(output.getAll())
                .containsOnlyOnce(
                        "store 'audit' (zookeeper): cosid.stores.audit.options.connectString is not"
                                + " set: the store connects to localhost:2181, the default; set"
                                + " cosid.stores.audit.options.connectString")
                .doesNotContain("names no client options of its own");
    }

    @Test
    @DisplayName("startup logs one warning naming localhost:2181 and the key to set")
    void warnsOfTheDefault(CapturedOutput output) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigs.all())
                .withPropertyValues(
                        "cosid.stores.orders.type=zookeeper",
                        "cosid.stores.orders.timeout=1s",
                        "cosid.stores.orders.options.root=/default-connect-string")
                .run(
                        context -> {
                            // whether it then reaches a server is not the point here
                        });

        assertThat(output.getAll())
                .containsOnlyOnce(
                        "cosid.stores.orders names no client options of its own and the application"
                                + " has no CuratorFramework bean: the store connects by itself,"
                                + " from its options and their defaults")
                .containsOnlyOnce(
                        "store 'orders' (zookeeper): cosid.stores.orders.options.connectString is"
                                + " not set: the store connects to localhost:2181, the default; set"
                                + " cosid.stores.orders.options.connectString");
    }
}
