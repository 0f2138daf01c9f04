package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.MariaDbExtension;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * migrate in from Meituan Leaf's {@code leaf_alloc} (on MariaDB, as Leaf runs on MySQL) and CosId's
 * {@code cosid} table (on PostgreSQL), with the tables as those projects create them, onto a JDBC
 * store: the store never hands out a value below a row's maximum.
 */
@DisplayName("cosid-store migrate from Leaf's and CosId's tables")
class TableMigrationTest {

    @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.newest();
    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path dir;
    private final String id = UUID.randomUUID().toString().substring(0, 8).replace("-", "");
    private Path config;

    @BeforeEach
    void setUp() throws Exception {
        config = dir.resolve("stores.yaml");
        Files.writeString(
                config,
                "cosid:\n  stores:\n    pg:\n      type: jdbc\n      options:\n        url: "
                        + POSTGRES.jdbcUrl()
                        + "\n        schema: create\n        tablePrefix: t"
                        + id
                        + "_\n");
        // Leaf's DDL (leaf-server's scripts/leaf_alloc.sql), and two tags Leaf has drawn from
        sql(
                MARIADB.jdbcUrl(),
                "CREATE TABLE leaf_alloc_"
                        + id
                        + " (biz_tag varchar(128) NOT NULL DEFAULT '',"
                        + " max_id bigint(20) NOT NULL DEFAULT '1', step int(11) NOT NULL,"
                        + " description varchar(256) DEFAULT NULL, update_time timestamp NOT NULL"
                        + " DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,"
                        + " PRIMARY KEY (biz_tag)) ENGINE=InnoDB",
                "INSERT INTO leaf_alloc_"
                        + id
                        + " (biz_tag, max_id, step) VALUES"
                        + " ('orders', 1, 1000), ('users', 1, 500)",
                leafDraw("orders"),
                leafDraw("orders"),
                leafDraw("users"));
        // CosId's DDL for cosid-jdbc (JdbcIdSegmentDistributor), in PostgreSQL's types
        sql(
                POSTGRES.jdbcUrl(),
                "CREATE TABLE cosid_"
                        + id
                        + " (name varchar(100) NOT NULL PRIMARY KEY, last_max_id bigint NOT NULL"
                        + " DEFAULT 0, last_fetch_time bigint NOT NULL)",
                "INSERT INTO cosid_" + id + " VALUES ('order_service.order', 3000, 0)");
    }

    /** What a Leaf server sends to draw a segment of {@code tag}. */
    private String leafDraw(String tag) {
        return "UPDATE leaf_alloc_"
                + id
                + " SET max_id = max_id + step WHERE biz_tag = '"
                + tag
                + "'";
    }

    @Test
    @DisplayName(
            "Leaf's tags become range keys above every value Leaf handed out; a second run changes"
                    + " nothing")
    void fromLeaf() throws Exception {
        Cli.Result first = migrateLeafTable("--all");
        assertThat(first.code()).as(first.toString()).isZero();
        try (Store pg = open()) {
            assertThat(pg.ranges().peek("orders")).contains(new RangeState(2001, false));
            assertThat(pg.ranges().peek("users")).contains(new RangeState(501, false));
            assertThat(pg.ranges().acquire("orders", 10).start())
                    .as("Leaf handed out [1, 2001)")
                    .isEqualTo(2001);
        }
        Cli.Result second = migrateLeafTable("--all", "--json");
        assertThat(second.code()).as(second.toString()).isZero();
        assertThat(second.out()).contains("\"changes\":0");
    }

    @Test
    @DisplayName(
            "--seal-source renames Leaf's row first, so Leaf draws no more, and moves its final"
                    + " maximum; a second run finds it sealed")
    void sealLeaf() throws Exception {
        Cli.Result r = migrateLeafTable("--keys", "orders", "--seal-source");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sealed source row as orders~migrated");
        try (Connection c = DriverManager.getConnection(MARIADB.jdbcUrl());
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(leafDraw("orders")))
                    .as("Leaf finds no row to draw from")
                    .isZero();
        }
        try (Store pg = open()) {
            assertThat(pg.ranges().peek("orders")).contains(new RangeState(2001, false));
        }
        Cli.Result again = migrateLeafTable("--keys", "orders", "--seal-source", "--json");
        assertThat(again.code()).as(again.toString()).isZero();
        assertThat(again.out()).contains("\"changes\":0");
    }

    @Test
    @DisplayName(
            "CosId's counters become range keys at their last_max_id; a dry run writes nothing")
    void fromCosIdTable() throws Exception {
        Cli.Result dry = migrateCosIdTable("--all", "--dry-run");
        assertThat(dry.code()).as(dry.toString()).isZero();
        try (Store pg = open()) {
            assertThat(pg.ranges().peek("order_service.order")).isEmpty();
        }
        Cli.Result r = migrateCosIdTable("--all");
        assertThat(r.code()).as(r.toString()).isZero();
        try (Store pg = open()) {
            assertThat(pg.ranges().peek("order_service.order"))
                    .contains(new RangeState(3000, false));
        }
    }

    @Test
    @DisplayName(
            "--seal-source with a tag too long for the renamed name is refused before any row is"
                    + " renamed or anything written, naming the tag and the column's size")
    void sealLongTag() throws Exception {
        String longTag = "t".repeat(124);
        sql(
                MARIADB.jdbcUrl(),
                "INSERT INTO leaf_alloc_"
                        + id
                        + " (biz_tag, max_id, step) VALUES ('"
                        + longTag
                        + "', 7, 10)");
        Cli.Result r = migrateLeafTable("--all", "--seal-source");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err())
                .contains("row " + longTag + " cannot be sealed: biz_tag holds at most 128")
                .contains("Nothing was written");
        try (Connection c = DriverManager.getConnection(MARIADB.jdbcUrl());
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate(leafDraw("orders")))
                    .as("no row was renamed: Leaf still draws")
                    .isOne();
        }
        try (Store pg = open()) {
            assertThat(pg.ranges().list()).isEmpty();
        }
    }

    @Test
    @DisplayName("a row whose max_id is NULL is refused by name; nothing is guessed or written")
    void nullMaximum() throws Exception {
        sql(
                MARIADB.jdbcUrl(),
                "ALTER TABLE leaf_alloc_" + id + " MODIFY max_id bigint(20) NULL",
                "INSERT INTO leaf_alloc_"
                        + id
                        + " (biz_tag, max_id, step) VALUES ('nulls', NULL, 1)");
        Cli.Result r = migrateLeafTable("--all");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("Leaf's row nulls has max_id NULL");
        try (Store pg = open()) {
            assertThat(pg.ranges().list()).isEmpty();
        }
        Cli.Result others = migrateLeafTable("--keys", "orders,users");
        assertThat(others.code()).as(others.toString()).isZero();
    }

    @Test
    @DisplayName(
            "the report names the source table and its database without the password; --jdbc-url"
                    + " names the target as the other commands take it")
    void reportAndJdbcUrl() {
        open().close(); // creates the target's tables (schema: create in the file)
        String url = POSTGRES.jdbcUrl() + "&password=s3cret"; // trust: the password is unused
        Cli.Result r =
                Cli.run(
                        "migrate",
                        "--from-cosid-jdbc",
                        url,
                        "--source-table",
                        "cosid_" + id,
                        "--all",
                        "--jdbc-url",
                        POSTGRES.jdbcUrl(),
                        "--table-prefix",
                        "t" + id + "_");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("migrate CosId's table cosid_" + id + " at ")
                .contains("password=***")
                .doesNotContain("s3cret")
                .doesNotContain("null");
        try (Store pg = open()) {
            assertThat(pg.ranges().peek("order_service.order"))
                    .contains(new RangeState(3000, false));
        }
    }

    /** migrate from this test's Leaf table on MariaDB, with {@code more} arguments. */
    private Cli.Result migrateLeafTable(String... more) {
        return migrate(
                new String[] {
                    "--from-leaf", MARIADB.jdbcUrl(), "--source-table", "leaf_alloc_" + id
                },
                more);
    }

    /** migrate from this test's CosId table on PostgreSQL, with {@code more} arguments. */
    private Cli.Result migrateCosIdTable(String... more) {
        return migrate(
                new String[] {
                    "--from-cosid-jdbc", POSTGRES.jdbcUrl(), "--source-table", "cosid_" + id
                },
                more);
    }

    private Cli.Result migrate(String[] source, String... more) {
        String[] all = new String[source.length + more.length];
        System.arraycopy(source, 0, all, 0, source.length);
        System.arraycopy(more, 0, all, source.length, more.length);
        return migrate(all);
    }

    private Cli.Result migrate(String... source) {
        String[] args = new String[source.length + 5];
        args[0] = "migrate";
        args[1] = "--config";
        args[2] = config.toString();
        args[3] = "--to";
        args[4] = "pg";
        System.arraycopy(source, 0, args, 5, source.length);
        return Cli.run(args);
    }

    private Store open() {
        return Stores.open(StoreSelection.named(ConfigFiles.read(config), "pg", "--store"));
    }

    private static void sql(String url, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }
}
