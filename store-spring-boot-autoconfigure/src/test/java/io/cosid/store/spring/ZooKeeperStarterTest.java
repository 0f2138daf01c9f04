package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeStore;
import io.cosid.store.Store;
import io.cosid.store.StoreObserver;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration on a real ZooKeeper server: whose client, close order, env, health. */
@DisplayName("cosid-store's Spring Boot auto-configuration on ZooKeeper")
class ZooKeeperStarterTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final String root = "/spring-" + UUID.randomUUID().toString().substring(0, 8);

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigs.all());

    private static CuratorFramework startedClient(String connectString) {
        CuratorFramework client =
                CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100));
        client.start();
        try {
            assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return client;
    }

    @Test
    @DisplayName(
            "without client options the store uses the application's CuratorFramework bean, and"
                    + " closes before it")
    void applicationClient() {
        CuratorFramework client = startedClient(SERVER.server().connectString());
        List<CuratorFrameworkState> clientAtStoreClose = new ArrayList<>();
        StoreObserver closeWatch =
                new StoreObserver() {
                    @Override
                    public void closed(String store, String type) {
                        clientAtStoreClose.add(client.getState());
                    }
                };
        runner.withPropertyValues(
                        "cosid.stores.zk.type=zookeeper", "cosid.stores.zk.options.root=" + root)
                .withBean("curator", CuratorFramework.class, () -> client)
                .withBean(
                        StoreConfigCustomizer.class,
                        () -> StoreConfigCustomizer.observer(closeWatch))
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            assertThat(
                                            context.getBeanFactory()
                                                    .getBeanDefinition("cosidStore.zk")
                                                    .getDependsOn())
                                    .containsExactly("curator");
                            assertThat(
                                            context.getBean(RangeStore.class)
                                                    .acquire("orders", 10)
                                                    .start())
                                    .isZero();
                            assertThat(client.checkExists().forPath(root + "/range/orders"))
                                    .as("written through the application's client's server")
                                    .isNotNull();
                        });
        assertThat(clientAtStoreClose).containsExactly(CuratorFrameworkState.STARTED);
        assertThat(client.getState())
                .as("the client bean closed after the store")
                .isEqualTo(CuratorFrameworkState.STOPPED);
    }

    @Test
    @DisplayName("with a connect string the store builds its own client, not the application's")
    void ownClient() {
        CuratorFramework client = startedClient(SERVER.server().connectString());
        try {
            runner.withPropertyValues(
                            "cosid.stores.zk.type=zookeeper",
                            "cosid.stores.zk.options.connectString="
                                    + SERVER.server().connectString(),
                            "cosid.stores.zk.options.root=" + root)
                    .withBean(
                            "curator",
                            CuratorFramework.class,
                            () -> client,
                            bd -> bd.setDestroyMethodName(""))
                    .run(
                            context -> {
                                assertThat(context).hasNotFailed();
                                assertThat(
                                                context.getBeanFactory()
                                                        .getBeanDefinition("cosidStore.zk")
                                                        .getDependsOn())
                                        .isNullOrEmpty();
                                assertThat(
                                                context.getBean(Store.class)
                                                        .ranges()
                                                        .acquire("orders", 10)
                                                        .start())
                                        .isZero();
                            });
            assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
        } finally {
            client.close();
        }
    }

    @Test
    @DisplayName(
            "environment variables configure a ZooKeeper store:"
                    + " COSID_STORES_ZK_OPTIONS_CONNECTSTRING is connectString")
    void environmentVariables() {
        runner.withInitializer(
                        Environments.variables(
                                Map.of(
                                        "COSID_STORES_ZK_TYPE",
                                        "zookeeper",
                                        "COSID_STORES_ZK_OPTIONS_CONNECTSTRING",
                                        SERVER.server().connectString(),
                                        "COSID_STORES_ZK_OPTIONS_SESSIONTIMEOUT",
                                        "20s",
                                        "COSID_STORES_ZK_OPTIONS_ROOT",
                                        root)))
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            assertThat(
                                            context.getBean(RangeStore.class)
                                                    .acquire("orders", 10)
                                                    .end())
                                    .isEqualTo(10);
                        });
    }

    @Test
    @DisplayName("health goes DOWN, naming the store, when its server stops")
    void healthDownAgainstStoppedServer() {
        ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
        try {
            runner.withPropertyValues(
                            "cosid.stores.zk.type=zookeeper",
                            "cosid.stores.zk.timeout=1s",
                            "cosid.stores.zk.options.connectString=" + server.connectString(),
                            "cosid.stores.zk.options.sessionTimeout=10s")
                    .run(
                            context -> {
                                HealthIndicator health =
                                        (HealthIndicator)
                                                context.getBean(
                                                                "cosidStoreHealthContributor",
                                                                CompositeHealthContributor.class)
                                                        .getContributor("zk");
                                assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                                server.kill(1);
                                var down = health.health();
                                assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                                assertThat(down.getDetails()).containsEntry("reachable", false);
                            });
        } finally {
            server.close();
        }
    }
}
