package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.jdbc.harness.PostgresExtension;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
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
}
