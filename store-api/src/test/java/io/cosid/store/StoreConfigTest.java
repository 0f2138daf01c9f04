package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("StoreConfig")
class StoreConfigTest {

    @Nested
    @DisplayName("reads cosid.stores")
    class Parsing {

        @Test
        @DisplayName("from nested maps, as a YAML parser returns them")
        void nested() {
            Map<String, Object> yaml =
                    Map.of(
                            "cosid",
                            Map.of(
                                    "stores",
                                    Map.of(
                                            "zk",
                                                    Map.of(
                                                            "type",
                                                            "zookeeper",
                                                            "timeout",
                                                            "3s",
                                                            "options",
                                                            Map.of(
                                                                    "connectString",
                                                                    "zk-1:2181,zk-2:2181",
                                                                    "retry",
                                                                    Map.of("maxRetries", 7))),
                                            "mem", Map.of("type", "in-memory"))),
                            "server",
                            Map.of("port", 8080));
            Map<String, StoreConfig> all = StoreConfig.parseAll(yaml);
            assertThat(all).containsOnlyKeys("mem", "zk");
            StoreConfig zk = all.get("zk");
            assertThat(zk.type()).isEqualTo("zookeeper");
            assertThat(zk.timeout()).isEqualTo(Duration.ofSeconds(3));
            assertThat(zk.options())
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of(
                                    "connectString",
                                    "zk-1:2181,zk-2:2181",
                                    "retry.maxRetries",
                                    "7"));
            assertThat(all.get("mem").timeout()).isEqualTo(StoreConfig.DEFAULT_TIMEOUT);
            assertThat(all.get("mem").options()).isEmpty();
        }

        @Test
        @DisplayName("from flat dotted properties")
        void properties() {
            Properties p = new Properties();
            p.setProperty("cosid.stores.zk.type", "zookeeper");
            p.setProperty("cosid.stores.zk.timeout", "PT1.5S");
            p.setProperty("cosid.stores.zk.options.retry.baseSleepTime", "100ms");
            p.setProperty("unrelated.key", "x");
            StoreConfig zk = StoreConfig.parseAll(p).get("zk");
            assertThat(zk.timeout()).isEqualTo(Duration.ofMillis(1500));
            assertThat(zk.options()).containsEntry("retry.baseSleepTime", "100ms");
        }

        @Test
        @DisplayName("one named store, or an error listing the configured ones")
        void named() {
            Map<String, Object> flat =
                    Map.of("cosid.stores.a.type", "in-memory", "cosid.stores.b.type", "in-memory");
            assertThat(StoreConfig.parse("b", flat).name()).isEqualTo("b");
            assertThatThrownBy(() -> StoreConfig.parse("c", flat))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no store named 'c'")
                    .hasMessageContaining("[a, b]");
        }

        @Test
        @DisplayName("a store without a type is an error naming the key")
        void missingType() {
            assertThatThrownBy(() -> StoreConfig.parseAll(Map.of("cosid.stores.zk.timeout", "3s")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.type is missing");
        }

        @Test
        @DisplayName("an unknown setting is an error naming the key")
        void unknownSetting() {
            assertThatThrownBy(
                            () ->
                                    StoreConfig.parseAll(
                                            Map.of(
                                                    "cosid.stores.zk.type",
                                                    "zookeeper",
                                                    "cosid.stores.zk.timeuot",
                                                    "3s")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.timeuot");
            assertThatThrownBy(() -> StoreConfig.parseAll(Map.of("cosid.stores.zk", "zookeeper")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk");
        }

        @Test
        @DisplayName("a list where a value belongs is an error naming the key")
        void listValue() {
            Map<String, Object> options = Map.of("connectString", List.of("a:1", "b:2"));
            Map<String, Object> zk = Map.of("type", "zookeeper", "options", options);
            Map<String, Object> settings = Map.of("cosid", Map.of("stores", Map.of("zk", zk)));
            assertThatThrownBy(() -> StoreConfig.parseAll(settings))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(
                            "cosid.stores.zk.options.connectString must be a single value");
        }

        @ParameterizedTest(name = "name \"{0}\"")
        @ValueSource(strings = {"", "has space", "a.b", "ü"})
        @DisplayName("an invalid store name is refused, naming the rule")
        void invalidName(String name) {
            assertThatThrownBy(() -> StoreConfig.of(name, "in-memory"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("letters, digits");
        }

        @Test
        @DisplayName("a non-positive or huge timeout is refused, naming the key")
        void badTimeout() {
            assertThatThrownBy(() -> StoreConfig.of("a", "in-memory").withTimeout(Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.a.timeout");
            assertThatThrownBy(
                            () -> StoreConfig.of("a", "in-memory").withTimeout(Duration.ofHours(2)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at most 1h");
        }
    }

    @Test
    @DisplayName(
            "settings given flat, without cosid.stores.<name>, are refused showing the expected"
                    + " shape")
    void flatSettingsWithoutPrefix() {
        assertThatThrownBy(
                        () ->
                                StoreConfig.parse(
                                        "main",
                                        Map.of(
                                                "type",
                                                "zookeeper",
                                                "options.connectString",
                                                "zk-1:2181")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no store named 'main'")
                .hasMessageContaining("[options.connectString, type] outside cosid.stores")
                .hasMessageContaining("{cosid={stores={main={type=zookeeper");
    }

    @Nested
    @DisplayName("reads durations")
    class Durations {

        @ParameterizedTest(name = "\"{0}\" is {1} ms")
        @CsvSource({
            "100ms,100",
            "3s,3000",
            "2m,120000",
            "1h,3600000",
            "1d,86400000",
            "PT3S,3000",
            "PT0.25S,250",
            "' 5s ',5000",
            "0ms,0"
        })
        @DisplayName("with a unit or in ISO-8601")
        void valid(String text, long millis) {
            assertThat(StoreConfig.parseDuration("k", text)).hasMillis(millis);
        }

        @ParameterizedTest(name = "{0} is written \"{1}\"")
        @CsvSource({
            "PT5S,5s",
            "PT0.2S,200ms",
            "PT1.5S,1500ms",
            "PT0S,0ms",
            "PT2M,2m",
            "PT90S,90s",
            "PT3H,3h",
            "PT48H,2d",
            "PT0.0000001S,PT0.0000001S",
            "PT-1S,PT-1S"
        })
        @DisplayName("and writes them as settings are written, so that they read back the same")
        void written(String iso, String text) {
            Duration d = Duration.parse(iso);
            assertThat(StoreConfig.formatDuration(d)).isEqualTo(text);
            if (!d.isNegative()) {
                assertThat(StoreConfig.parseDuration("k", text)).isEqualTo(d);
            }
        }

        @ParameterizedTest(name = "\"{0}\"")
        @ValueSource(
                strings = {
                    "3",
                    "3 s",
                    "3sec",
                    "-3s",
                    "1.5s",
                    "PT",
                    "P3X",
                    "",
                    "ms",
                    "99999999999999s"
                })
        @DisplayName("and refuses anything else, naming the key and the accepted forms")
        void invalid(String text) {
            assertThatThrownBy(() -> StoreConfig.parseDuration("cosid.stores.zk.timeout", text))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.timeout")
                    .hasMessageContaining("100ms, 3s");
        }
    }

    @Nested
    @DisplayName("gives backends typed options")
    class Options {

        private final StoreConfig config =
                StoreConfig.of("zk", "zookeeper")
                        .withOption("sessionTimeout", "30s")
                        .withOption("retry.maxRetries", "9")
                        .withOption("bad.number", "nine")
                        .withOption("bad.duration", "0s");

        @Test
        @DisplayName("with defaults for absent options")
        void defaults() {
            assertThat(config.durationOption("sessionTimeout", Duration.ofSeconds(60)))
                    .hasSeconds(30);
            assertThat(config.durationOption("connectionTimeout", Duration.ofSeconds(15)))
                    .hasSeconds(15);
            assertThat(config.intOption("retry.maxRetries", 5, 0, 29)).isEqualTo(9);
            assertThat(config.intOption("absent", 5, 0, 29)).isEqualTo(5);
            assertThat(config.option("connectString", "localhost:2181"))
                    .isEqualTo("localhost:2181");
        }

        @Test
        @DisplayName("and errors that name the option's full key")
        void malformed() {
            assertThatThrownBy(() -> config.intOption("bad.number", 5, 0, 29))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.options.bad.number")
                    .hasMessageContaining("0 to 29");
            assertThatThrownBy(() -> config.intOption("retry.maxRetries", 5, 0, 3))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> config.durationOption("bad.duration", Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("more than 0");
            assertThatThrownBy(() -> config.requireKnownOptions(Set.of("sessionTimeout")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.options.bad.duration");
        }

        @Test
        @DisplayName(
                "with yes-or-no and one-of-a-few-words options, in any case, refused by name and"
                        + " with the words allowed")
        void choices() {
            StoreConfig words =
                    StoreConfig.of("db", "jdbc")
                            .withOption("tls.enabled", " TRUE ")
                            .withOption("failover", "Accept")
                            .withOption("acl", "everyone")
                            .withOption("dialect", "oracle")
                            .withOption("fix", "yes");
            assertThat(words.booleanOption("tls.enabled", false)).isTrue();
            assertThat(words.booleanOption("absent", true)).isTrue();
            assertThat(words.choiceOption("failover", "refuse", List.of("refuse", "accept")))
                    .isEqualTo("accept");
            assertThat(words.choiceOption("absent", null, List.of("a", "b", "c"))).isNull();
            assertThatThrownBy(() -> words.booleanOption("fix", false))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("cosid.stores.db.options.fix must be true or false, got 'yes'");
            assertThatThrownBy(() -> words.choiceOption("acl", "open", List.of("open", "creator")))
                    .hasMessage(
                            "cosid.stores.db.options.acl must be open or creator, got 'everyone'");
            assertThatThrownBy(
                            () ->
                                    words.choiceOption(
                                            "dialect", null, List.of("postgresql", "mysql", "h2")))
                    .hasMessage(
                            "cosid.stores.db.options.dialect must be one of postgresql, mysql, h2,"
                                    + " got 'oracle'");
        }

        @Test
        @DisplayName(
                "with keys matched to the backend's spelling ignoring case and dashes (environment"
                        + " variables lowercase them)")
        void keysMatchedLoosely() {
            StoreConfig lowered =
                    StoreConfig.of("zk", "zookeeper")
                            .withOption("connectstring", "zk-1:2181")
                            .withOption("retry.max-retries", "9")
                            .withOption("unknownkey", "x");
            StoreConfig spelled =
                    lowered.withOptionKeysAs(Set.of("connectString", "retry.maxRetries"));
            assertThat(spelled.options())
                    .containsOnlyKeys("connectString", "retry.maxRetries", "unknownkey")
                    .containsEntry("connectString", "zk-1:2181");
            assertThatThrownBy(
                            () ->
                                    spelled.requireKnownOptions(
                                            Set.of("connectString", "retry.maxRetries")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.options.unknownkey");
            assertThat(config.withOptionKeysAs(Set.of())).isSameAs(config);
        }

        @Test
        @DisplayName("refusing two keys that set the same option, naming both")
        void sameOptionTwice() {
            StoreConfig twice =
                    StoreConfig.of("zk", "zookeeper")
                            .withOption("connectString", "a:1")
                            .withOption("connectstring", "b:2");
            assertThatThrownBy(() -> twice.withOptionKeysAs(Set.of("connectString")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.zk.options.connectString")
                    .hasMessageContaining("cosid.stores.zk.options.connectstring");
        }

        @Test
        @DisplayName("that cannot be changed by the caller")
        void unmodifiable() {
            assertThatThrownBy(() -> config.options().put("x", "y"))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
