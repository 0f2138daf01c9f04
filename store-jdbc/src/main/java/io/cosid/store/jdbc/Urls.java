package io.cosid.store.jdbc;

import java.util.regex.Pattern;

/** JDBC URLs as logs and the tool print them: with any password replaced. */
final class Urls {

    private static final Pattern PASSWORD =
            Pattern.compile("((?:[?&;]|^)password=)[^&;]*", Pattern.CASE_INSENSITIVE);

    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");

    private Urls() {}

    /** {@code url} with a {@code password=} parameter and a {@code user:password@} part hidden. */
    static String withoutSecrets(String url) {
        String hidden = PASSWORD.matcher(url).replaceAll("$1***");
        return USER_INFO.matcher(hidden).replaceAll("$1***@");
    }
}
