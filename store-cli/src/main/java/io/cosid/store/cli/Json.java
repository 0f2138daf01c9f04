package io.cosid.store.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON for scripts, written by Jackson: maps become objects (in their iteration order, which the
 * views keep fixed), collections arrays, instants ISO-8601 strings, durations milliseconds. Every
 * document the tool prints carries {@code schemaVersion} first.
 */
final class Json {

    /**
     * The shape of the documents: raised when a field changes meaning or goes; new fields keep it.
     */
    static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER =
            new ObjectMapper()
                    .registerModule(
                            new SimpleModule("cosid-store-cli")
                                    .addSerializer(Instant.class, new InstantText())
                                    .addSerializer(Duration.class, new DurationMillis()));

    private Json() {}

    /** One line: {@code schemaVersion}, then the fields of {@code body}. */
    static String document(Map<String, ?> body) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schemaVersion", SCHEMA_VERSION);
        doc.putAll(body);
        return write(doc);
    }

    /** An error under {@code --json}: what failed, its exit code and class. */
    static String error(int exitCode, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("exitCode", exitCode);
        error.put("message", message);
        body.put("error", error);
        return document(body);
    }

    private static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class InstantText extends JsonSerializer<Instant> {
        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers)
                throws IOException {
            gen.writeString(value.toString());
        }
    }

    private static final class DurationMillis extends JsonSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializerProvider serializers)
                throws IOException {
            gen.writeNumber(value.toMillis());
        }
    }
}
