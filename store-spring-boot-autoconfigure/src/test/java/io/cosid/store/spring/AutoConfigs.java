package io.cosid.store.spring;

import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.util.ClassUtils;

/** Every auto-configuration this module's imports file lists, as an application gets them. */
final class AutoConfigs {

    private AutoConfigs() {}

    /** The auto-configurations of {@code META-INF/spring/...AutoConfiguration.imports}. */
    static AutoConfigurations all() {
        ClassLoader loader = AutoConfigs.class.getClassLoader();
        List<String> names = ImportCandidates.load(AutoConfiguration.class, loader).getCandidates();
        return AutoConfigurations.of(
                names.stream()
                        .filter(name -> name.startsWith("io.cosid.store.spring."))
                        .map(name -> ClassUtils.resolveClassName(name, loader))
                        .toArray(Class<?>[]::new));
    }
}
