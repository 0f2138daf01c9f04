package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryStores;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The migration from CosId's layout against an in-memory target, with the clock set by hand. */
@DisplayName("migration from CosId's layout, by hand")
class CosIdMigrationTest {

    @Test
    @DisplayName("a counter that moved during the run is reported, one that stood still is not")
    void movedCounters() {
        Instant t = Instant.parse("2026-12-05T12:00:00Z");
        List<CosIdZooKeeperLayout.Counter> migrated =
                List.of(
                        new CosIdZooKeeperLayout.Counter("shop.order", 2_500, t),
                        new CosIdZooKeeperLayout.Counter("shop.invoice", 700, t));
        CosIdZooKeeperLayout after =
                new CosIdZooKeeperLayout(
                        List.of(
                                new CosIdZooKeeperLayout.Counter("shop.order", 2_600, t),
                                new CosIdZooKeeperLayout.Counter("shop.invoice", 700, t)),
                        List.of());

        assertThat(CosIdMigration.moved(migrated, after))
                .containsExactly(
                        "CosId's counter shop.order moved from 2500 to 2600 during the migration:"
                                + " a CosId instance still draws from it; stop it and run again");
    }

    @Test
    @DisplayName(
            "a first run whose clock has sub-millisecond digits raises floors to the next whole"
                    + " millisecond plus the tolerance")
    void firstRunFloorIsWholeMilliseconds() {
        Instant now = Instant.parse("2026-12-05T12:00:00.000500Z");
        CosIdZooKeeperLayout.MachineNamespace orders =
                new CosIdZooKeeperLayout.MachineNamespace(
                        "orders",
                        1,
                        List.of(
                                new CosIdZooKeeperLayout.MachineNode(
                                        "/cosid/orders/__revert/0",
                                        0,
                                        now.minusSeconds(600).toEpochMilli(),
                                        now.minusSeconds(600))));
        try (Store target = InMemoryStores.open()) {
            Migration.Report report =
                    CosIdMigration.run(
                            target,
                            List.of(),
                            List.of(orders),
                            new CosIdMigration.Settings(
                                    4,
                                    Duration.ofMillis(500),
                                    Duration.ofMinutes(1),
                                    Duration.ofMinutes(3)),
                            now,
                            false);

            assertThat(report.problems()).isEmpty();
            SlotView slot = target.slots().inspect("orders").slots().get(0);
            assertThat(slot.nextFloor()).isEqualTo(Instant.parse("2026-12-05T12:00:00.501Z"));
        }
    }

    @Test
    @DisplayName(
            "a failure to read CosId's nodes again after the target was written says it was"
                    + " written, never that nothing was")
    void rereadAfterWriting() {
        ExitCodes.Refused refused =
                MigrateCommand.afterWriting(
                        new ExitCodes.Refused(
                                ExitCodes.REFUSED,
                                "refused: /cosid/notes holds 1 bytes. Only CosId's own nodes can"
                                        + " be migrated; move these away or migrate them by hand."
                                        + " Nothing was written."));
        assertThat(ExitCodes.of(refused)).isEqualTo(ExitCodes.FAILED);
        assertThat(refused.getMessage())
                .startsWith("the target was written as the report above shows")
                .contains("/cosid/notes holds 1 bytes")
                .doesNotContain("Nothing was written");
    }
}
