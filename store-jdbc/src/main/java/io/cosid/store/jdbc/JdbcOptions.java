package io.cosid.store.jdbc;

import io.cosid.store.StoreConfig;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A JDBC store's options, checked: where its connections come from ({@code url}, {@code username},
 * {@code password}, {@code poolSize}: or the application's data source), the SQL dialect, what
 * happens to missing tables ({@code schema}) and the tables' names ({@code tablePrefix}, {@code
 * tableSchema}).
 *
 * @param url the JDBC URL, when the store builds its own pool
 * @param username the user, or null for the URL's
 * @param password the password, or null for the URL's
 * @param poolSize the most connections the store's own pool opens
 * @param dialect the dialect named, or null to detect it
 * @param schema what to do with missing tables at open
 * @param names the tables' names
 * @param acceptFailover whether the store goes on when the database changes identity (option {@code
 *     failover: accept}) instead of refusing ({@code refuse}, the default)
 */
record JdbcOptions(
        @Nullable String url,
        @Nullable String username,
        @Nullable String password,
        int poolSize,
        @Nullable String dialect,
        Schema.Mode schema,
        TableNames names,
        boolean acceptFailover) {

    /** Every option key. */
    static final Set<String> KEYS =
            Set.of(
                    "url",
                    "username",
                    "password",
                    "poolSize",
                    "dialect",
                    "schema",
                    "tablePrefix",
                    "tableSchema",
                    "failover");

    /** The dialects this module speaks. */
    static final List<String> DIALECTS = List.of("postgresql", "mysql");

    /**
     * Reads and checks {@code config}'s options.
     *
     * @throws IllegalArgumentException naming the option's full key, if one is unknown or malformed
     */
    static JdbcOptions of(StoreConfig config) {
        config.requireKnownOptions(KEYS);
        String url = config.option("url", null);
        if (url != null && !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException(
                    config.optionPath("url")
                            + " must be a JDBC URL (jdbc:postgresql://host:5432/db), got '"
                            + url
                            + "'");
        }
        String dialect = config.choiceOption("dialect", null, DIALECTS);
        Schema.Mode schema =
                Schema.Mode.valueOf(
                        Objects.requireNonNull(
                                        config.choiceOption(
                                                "schema",
                                                "validate",
                                                List.of("validate", "create")))
                                .toUpperCase(Locale.ROOT));
        TableNames names;
        try {
            names =
                    TableNames.of(
                            config.option("tableSchema", null), config.option("tablePrefix", null));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    config.optionPath("tablePrefix") + " or tableSchema: " + e.getMessage());
        }
        return new JdbcOptions(
                url,
                config.option("username", null),
                config.option("password", null),
                config.intOption("poolSize", 4, 1, 1024),
                dialect,
                schema,
                names,
                "accept"
                        .equals(
                                config.choiceOption(
                                        "failover", "refuse", List.of("refuse", "accept"))));
    }

    /**
     * The options as a store's open line shows them: where its connections come from (the URL
     * without secrets, or {@code application}), the dialect detected, the schema mode, the tables'
     * names and the failover rule; never a password.
     *
     * @param detected the server's dialect
     * @param application the application's data source, or null for the store's own pool
     */
    String describe(Dialect detected, @Nullable String application) {
        StringBuilder line = new StringBuilder();
        if (application != null) {
            line.append("dataSource=").append(application);
        } else {
            line.append("url=").append(Urls.withoutSecrets(Objects.requireNonNull(url)));
            if (username != null) {
                line.append(", username=").append(username);
            }
            if (password != null) {
                line.append(", password=***");
            }
            line.append(", poolSize=").append(poolSize);
        }
        return line.append(", dialect=")
                .append(detected.name().toLowerCase(Locale.ROOT))
                .append(", schema=")
                .append(schema.name().toLowerCase(Locale.ROOT))
                .append(", tables=")
                .append(names.shown())
                .append(", failover=")
                .append(acceptFailover ? "accept" : "refuse")
                .toString();
    }
}
