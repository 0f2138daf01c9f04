package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The schema files are the one definition of the tables: the check at open reads its columns from
 * them, and the statements that read and write rows use columns they define.
 */
@DisplayName("The tables' columns, as the schema files define them")
class SchemaColumnsTest {

    @Test
    @DisplayName("both dialects define the same four tables with the same columns")
    void dialectsAgree() {
        Map<String, List<String>> postgres = Schema.columns(Dialect.POSTGRESQL);
        assertThat(postgres).containsOnlyKeys("ranges", "namespaces", "slots", "owners");
        assertThat(Schema.columns(Dialect.MYSQL)).isEqualTo(postgres);
        assertThat(postgres.get("ranges"))
                .containsExactly(
                        "key_hash",
                        "range_key",
                        "next_value",
                        "sealed",
                        "incarnation",
                        "written_origin",
                        "written_replicated");
    }

    @Test
    @DisplayName("every column a slot row or a write's provenance uses is defined")
    void statementsUseDefinedColumns() {
        List<String> slots = Schema.columns(Dialect.POSTGRESQL).get("slots");
        assertThat(slots).containsSequence(List.of(SlotRows.COLUMNS.split(", ", -1)));
        assertThat(slots).containsAll(List.of(Provenance.COLUMNS.split(", ", -1)));
        assertThat(Schema.columns(Dialect.POSTGRESQL).get("ranges"))
                .containsAll(List.of(Provenance.COLUMNS.split(", ", -1)));
    }
}
