package io.cosid.store.cli;

import io.cosid.store.StoreConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the {@code cosid.stores} YAML that applications use. YAML only turns the file into maps;
 * the library's own {@link StoreConfig#parseAll(Map)} reads the stores, so the tool and
 * applications agree.
 */
final class ConfigFiles {

    private ConfigFiles() {}

    static Map<String, StoreConfig> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--config " + file + ": no such file");
        }
        try (Reader reader = Files.newBufferedReader(file)) {
            Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
            if (!(document instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException(
                        "--config " + file + ": expected a YAML mapping with cosid.stores");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> settings = (Map<String, Object>) map;
            Map<String, StoreConfig> stores = StoreConfig.parseAll(settings);
            if (stores.isEmpty()) {
                throw new IllegalArgumentException(
                        "--config " + file + " configures no store under cosid.stores");
            }
            return stores;
        } catch (YAMLException e) {
            throw new IllegalArgumentException(
                    "--config "
                            + file
                            + " is not valid YAML: "
                            + Objects.toString(e.getMessage(), "").lines().findFirst().orElse(""),
                    e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "--config " + file + " cannot be read: " + e.getMessage(), e);
        }
    }
}
