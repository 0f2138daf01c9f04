package io.cosid.store.spring;

import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Environment variables for a test context, mapped as Spring Boot maps the real ones. */
final class Environments {

    private Environments() {}

    /** A property source Spring Boot reads as environment variables (by its name's suffix). */
    private static final String NAME =
            "test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;

    /** An initializer that puts {@code variables} first, as environment variables. */
    static ApplicationContextInitializer<ConfigurableApplicationContext> variables(
            Map<String, Object> variables) {
        return context ->
                context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(NAME, variables));
    }
}
