package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.jdbc.JdbcStores;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The application's {@link DataSource} as a JDBC store's connections: used when the store's options
 * name no {@code url} of its own and the application has one data source bean (or one primary among
 * several). The store takes connections of its own from it and commits them itself, never the
 * caller's transaction. Kept apart so that nothing of the JDBC backend is loaded when it is not on
 * the class path.
 */
final class JdbcDataSources {

    private static final boolean PRESENT =
            ClassUtils.isPresent(
                    "io.cosid.store.jdbc.JdbcStores", JdbcDataSources.class.getClassLoader());

    private JdbcDataSources() {}

    /** The name of the data source bean the store should use, or null: it builds its own pool. */
    static @Nullable String dataSourceBeanFor(StoreConfig config, BeanFactory beanFactory) {
        if (!PRESENT
                || !config.type().equals("jdbc")
                || config.options().containsKey("url")
                || !(beanFactory instanceof ConfigurableListableBeanFactory beans)) {
            return null;
        }
        String[] names = beans.getBeanNamesForType(DataSource.class, true, false);
        if (names.length == 1) {
            return names[0];
        }
        List<String> primary =
                Arrays.stream(names)
                        .filter(
                                n ->
                                        beans.containsBeanDefinition(n)
                                                && beans.getBeanDefinition(n).isPrimary())
                        .toList();
        return primary.size() == 1 ? primary.get(0) : null;
    }

    /** Opens a JDBC store on the data source bean {@code dataSource}. */
    static Store open(StoreConfig config, String dataSource, BeanFactory beanFactory) {
        return JdbcStores.open(config, beanFactory.getBean(dataSource, DataSource.class));
    }
}
