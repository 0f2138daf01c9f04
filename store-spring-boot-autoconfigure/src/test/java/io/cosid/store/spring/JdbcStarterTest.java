package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.sql.Connection;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A JDBC store in a Spring Boot application on a real PostgreSQL: on the application's {@code
 * DataSource} bean (Boot's HikariCP pool), never inside the application's transactions.
 */
@DisplayName("Spring Boot with a JDBC store (PostgreSQL)")
@ExtendWith(OutputCaptureExtension.class)
class JdbcStarterTest {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
                    .withConfiguration(AutoConfigs.all())
                    .withPropertyValues(
                            "cosid.stores.main.type=jdbc",
                            "cosid.stores.main.options.schema=create");

    @Test
    @DisplayName("a jdbc store without a url uses the application's DataSource bean")
    void usesTheDataSourceBean() {
        runner.withPropertyValues("spring.datasource.url=" + SERVER.jdbcUrl())
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            Store store = context.getBean(Store.class);
                            assertThat(store.type()).isEqualTo("jdbc");
                            assertThat(store.ranges().acquire("orders", 10).end()).isEqualTo(10);
                            HikariDataSource pool = context.getBean(HikariDataSource.class);
                            assertThat(pool.getHikariPoolMXBean().getTotalConnections())
                                    .as("the store's connections came from the application's pool")
                                    .isPositive();
                        });
    }

    @Test
    @DisplayName("a jdbc store with a url of its own builds its own pool, leaving the bean alone")
    void ownUrl() {
        runner.withPropertyValues(
                        "spring.datasource.url=jdbc:postgresql://127.0.0.1:1/nowhere",
                        "cosid.stores.main.options.url=" + SERVER.jdbcUrl(),
                        "cosid.stores.main.options.tablePrefix=own_")
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            assertThat(
                                            context.getBean(Store.class)
                                                    .ranges()
                                                    .acquire("orders", 10)
                                                    .end())
                                    .isEqualTo(10);
                        });
    }

    @Test
    @DisplayName(
            "a range acquired inside a business transaction that rolls back stays handed out:"
                    + " the store works beside the transaction, never in it")
    void rollbackCannotUnissue() {
        runner.withUserConfiguration(TransactionalApplication.class)
                .withPropertyValues("cosid.stores.main.options.tablePrefix=tx_")
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            Store store = context.getBean(Store.class);
                            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
                            tx.executeWithoutResult(
                                    status -> {
                                        store.ranges().acquire("orders", 10);
                                        status.setRollbackOnly();
                                    });
                            assertThat(store.ranges().peek("orders"))
                                    .contains(new RangeState(10, false));
                            assertThat(store.ranges().acquire("orders", 10).start())
                                    .as("never handed out twice")
                                    .isEqualTo(10);
                        });
    }

    /** An application whose only data source is Spring's transaction-aware proxy. */
    @Configuration(proxyBeanMethods = false)
    static class TransactionalApplication {

        private final PGSimpleDataSource target = new PGSimpleDataSource();

        TransactionalApplication() {
            target.setURL(SERVER.jdbcUrl());
        }

        @Bean
        DataSource dataSource() {
            return new TransactionAwareDataSourceProxy(target);
        }

        @Bean
        TransactionTemplate transactionTemplate() {
            return new TransactionTemplate(new DataSourceTransactionManager(target));
        }
    }

    @Test
    @DisplayName(
            "the application's HikariCP pool lends no connection (its only one is taken): a store"
                    + " call ends within the store's timeout, not the pool's 30 s, and goes on once"
                    + " one is free; the pool's longer wait is warned of at start")
    void poolLendsNothing(CapturedOutput output) {
        runner.withPropertyValues(
                        "spring.datasource.url=" + SERVER.jdbcUrl(),
                        "spring.datasource.hikari.maximum-pool-size=1",
                        "cosid.stores.main.timeout=2s")
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            Store store = context.getBean(Store.class);
                            long first = store.ranges().acquire("held", 10).end();
                            assertThat(output)
                                    .contains(
                                            "its data source waits up to 30s for a connection,"
                                                    + " longer than the store's timeout of 2s");
                            Connection taken = context.getBean(DataSource.class).getConnection();
                            long start = System.nanoTime();
                            try {
                                assertThatThrownBy(() -> store.ranges().acquire("held", 1))
                                        .isInstanceOf(StoreTimeoutException.class)
                                        .hasMessageContaining("2s");
                                assertThat(Duration.ofNanos(System.nanoTime() - start))
                                        .as("the store's 2 s, not HikariCP's 30 s")
                                        .isLessThan(Duration.ofSeconds(15));
                            } finally {
                                taken.close();
                            }
                            assertThat(store.ranges().acquire("held", 1).start())
                                    .isGreaterThanOrEqualTo(first);
                        });
    }

    @Test
    @DisplayName(
            "a pool whose connection timeout is at most the store's is asked directly, without a"
                    + " warning: its own wait ends the call within the store's timeout")
    void poolBoundedByItself(CapturedOutput output) {
        runner.withPropertyValues(
                        "spring.datasource.url=" + SERVER.jdbcUrl(),
                        "spring.datasource.hikari.maximum-pool-size=1",
                        "spring.datasource.hikari.connection-timeout=1000",
                        "cosid.stores.main.timeout=2s")
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            Store store = context.getBean(Store.class);
                            store.ranges().acquire("bounded", 10);
                            assertThat(output).doesNotContain("waits up to");
                            Connection taken = context.getBean(DataSource.class).getConnection();
                            try {
                                assertThatThrownBy(() -> store.ranges().acquire("bounded", 1))
                                        .isInstanceOf(StoreTimeoutException.class);
                            } finally {
                                taken.close();
                            }
                            assertThat(store.ranges().acquire("bounded", 1).start()).isEqualTo(10);
                        });
    }
}
