package com.example.boot4;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeStore;
import io.cosid.store.StoreObserver;
import io.cosid.store.micrometer.StoreMetrics;
import io.cosid.store.spring.StoreConfigCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter on Spring Boot 4 with a real ZooKeeper server (embedded in this JVM): the
 * application's client and the close order, a store's own client, meters, health against a stopped
 * server.
 */
class BootFourZooKeeperTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner()
                    .withConfiguration(CosIdStoreAutoConfigurations.all());

    private EmbeddedServer server;

    @BeforeEach
    void startServer() throws IOException, InterruptedException {
        server = new EmbeddedServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private String connectString() {
        return server.connectString();
    }

    private CuratorFramework startedClient() throws InterruptedException {
        CuratorFramework client =
                CuratorFrameworkFactory.newClient(connectString(), new RetryOneTime(100));
        client.start();
        assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    @Test
    void applicationClientUsedAndClosedAfterTheStore() throws Exception {
        CuratorFramework client = startedClient();
        List<CuratorFrameworkState> atStoreClose = new ArrayList<>();
        StoreObserver closeWatch =
                new StoreObserver() {
                    @Override
                    public void closed(String store, String type) {
                        atStoreClose.add(client.getState());
                    }
                };
        runner.withPropertyValues("cosid.stores.zk.type=zookeeper")
                .withBean("curator", CuratorFramework.class, () -> client)
                .withBean(
                        StoreConfigCustomizer.class,
                        () -> StoreConfigCustomizer.observer(closeWatch))
                .run(
                        context -> {
                            assertThat(
                                            context.getBeanFactory()
                                                    .getBeanDefinition("cosidStore.zk")
                                                    .getDependsOn())
                                    .containsExactly("curator");
                            assertThat(context.getBean(RangeStore.class).acquire("k", 10).start())
                                    .isZero();
                        });
        assertThat(atStoreClose).containsExactly(CuratorFrameworkState.STARTED);
        assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STOPPED);
    }

    @Test
    void ownClientWithAConnectString() throws Exception {
        CuratorFramework client = startedClient();
        try {
            runner.withPropertyValues(
                            "cosid.stores.zk.type=zookeeper",
                            "cosid.stores.zk.options.connectString=" + connectString())
                    .withBean(
                            "curator",
                            CuratorFramework.class,
                            () -> client,
                            bd -> bd.setDestroyMethodName(""))
                    .run(
                            context -> {
                                assertThat(
                                                context.getBeanFactory()
                                                        .getBeanDefinition("cosidStore.zk")
                                                        .getDependsOn())
                                        .isNullOrEmpty();
                                assertThat(
                                                context.getBean(RangeStore.class)
                                                        .acquire("k", 10)
                                                        .start())
                                        .isZero();
                            });
            assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
        } finally {
            client.close();
        }
    }

    @Test
    void metersBoundToTheApplicationsRegistry() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues(
                        "cosid.stores.zk.type=zookeeper",
                        "cosid.stores.zk.options.connectString=" + connectString())
                .run(
                        context -> {
                            context.getBean(RangeStore.class).acquire("k", 10);
                            MeterRegistry registry = context.getBean(MeterRegistry.class);
                            assertThat(
                                            registry.get(StoreMetrics.OPERATIONS)
                                                    .tags(
                                                            "store",
                                                            "zk",
                                                            "operation",
                                                            "range.acquire")
                                                    .timer()
                                                    .count())
                                    .isEqualTo(1);
                        });
    }

    @Test
    void healthDownAgainstAStoppedServer() {
        runner.withPropertyValues(
                        "cosid.stores.zk.type=zookeeper",
                        "cosid.stores.zk.timeout=1s",
                        "cosid.stores.zk.options.connectString=" + connectString())
                .run(
                        context -> {
                            HealthIndicator health =
                                    (HealthIndicator)
                                            context.getBean(
                                                            "cosidStoreHealthContributor",
                                                            CompositeHealthContributor.class)
                                                    .getContributor("zk");
                            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                            server.close();
                            assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
                        });
    }
}
