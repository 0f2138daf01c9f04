package io.cosid.store.architecture;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.cosid.store.PlantedApiDependency;
import io.cosid.store.PlantedCuratorLeak;
import io.cosid.store.cosid.PlantedCosIdDependency;
import io.cosid.store.inmemory.InMemoryStoreProvider;
import io.cosid.store.inmemory.PlantedInMemoryDependency;
import io.cosid.store.jdbc.RangePlantedSlotUse;
import io.cosid.store.jdbc.SessionPlantedStoreUse;
import io.cosid.store.micrometer.PlantedMicrometerDependency;
import io.cosid.store.planted.PlantedInternalUse;
import io.cosid.store.planted.a.PlantedCycleA;
import io.cosid.store.planted.b.PlantedCycleB;
import io.cosid.store.planted.backend.PlantedBackendProvider;
import io.cosid.store.spi.PlantedSpiDependency;
import io.cosid.store.tck.PlantedTckDependency;
import io.cosid.store.zookeeper.PlantedZooKeeperLeak;
import io.cosid.store.zookeeper.ZooKeeperStoreProvider;
import io.cosid.store.zookeeper.internal.connect.PlantedWireUse;
import io.cosid.store.zookeeper.internal.ranges.PlantedSlotUse;
import io.cosid.store.zookeeper.internal.slots.PlantedRangeUse;
import io.cosid.store.zookeeper.internal.wire.PlantedStoreUse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every rule is shown to fail on a small planted violation, so a green rule means something. */
@DisplayName("Each architecture rule fails on a planted violation")
class RulesCatchViolationsTest {

    private static JavaClasses planted(Class<?>... classes) {
        return new ClassFileImporter().importClasses(classes);
    }

    @Test
    @DisplayName("store-api depending on a library")
    void apiDependency() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.API_DEPENDS_ONLY_ON_THE_JDK.check(
                                        planted(PlantedApiDependency.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedApiDependency")
                .hasMessageContaining("org.junit");
    }

    @Test
    @DisplayName("the backends' shared rules depending on a backend")
    void spiDependency() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.SPI_DEPENDS_ONLY_ON_THE_JDK_AND_THE_API.check(
                                        planted(PlantedSpiDependency.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("InMemoryStores");
    }

    @Test
    @DisplayName("store-cosid depending on a backend")
    void cosIdDependency() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.COSID_DEPENDS_ONLY_ON_THE_API_AND_COSID.check(
                                        planted(PlantedCosIdDependency.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedCosIdDependency")
                .hasMessageContaining("InMemoryStores");
    }

    @Test
    @DisplayName("store-micrometer depending on a backend")
    void micrometerDependency() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.MICROMETER_DEPENDS_ONLY_ON_THE_API_AND_MICROMETER
                                        .check(planted(PlantedMicrometerDependency.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedMicrometerDependency")
                .hasMessageContaining("InMemoryStores");
    }

    @Test
    @DisplayName("store-inmemory depending on the TCK")
    void inMemoryDependency() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.EVERY_BACKEND_KEEPS_TO_ITSELF.check(
                                        planted(
                                                PlantedInMemoryDependency.class,
                                                InMemoryStoreProvider.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ManualClock");
    }

    @Test
    @DisplayName("store-tck depending on a backend")
    void tckDependency() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.TCK_DEPENDS_ONLY_ON_THE_API_AND_TEST_LIBRARIES
                                        .check(planted(PlantedTckDependency.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("InMemoryStores");
    }

    @Test
    @DisplayName("a Curator type in store-api")
    void infrastructureInApi() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.NO_INFRASTRUCTURE_IN_THE_API.check(
                                        planted(PlantedCuratorLeak.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("CuratorFramework");
    }

    @Test
    @DisplayName("infrastructure types in public signatures, including inside generics")
    void publicSignatures() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.publicSignaturesFreeOfInfrastructure(
                                                ArchitectureRules.ZOOKEEPER_ENTRY_POINT)
                                        .check(
                                                planted(
                                                        PlantedCuratorLeak.class,
                                                        PlantedZooKeeperLeak.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(
                        "PlantedCuratorLeak.client() uses"
                                + " org.apache.curator.framework.CuratorFramework")
                .hasMessageContaining(
                        "useHandle(org.apache.zookeeper.ZooKeeper) uses"
                                + " org.apache.zookeeper.ZooKeeper")
                .hasMessageContaining("providers() uses jakarta.inject.Provider")
                .hasMessageContaining("open(org.apache.curator.framework.CuratorFramework)")
                .hasMessageNotContaining("internal(");
    }

    @Test
    @DisplayName("the entry point may accept a caller's CuratorFramework, and nothing else")
    void entryPointException() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.publicSignaturesFreeOfInfrastructure(
                                                PlantedZooKeeperLeak.class.getName())
                                        .check(planted(PlantedZooKeeperLeak.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("useHandle")
                .hasMessageNotContaining("open(org.apache.curator.framework.CuratorFramework)");
    }

    @Test
    @DisplayName("the ZooKeeper backend's internal package used from outside it")
    void internalUsedOutside() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.EVERY_BACKEND_KEEPS_TO_ITSELF.check(
                                        planted(
                                                PlantedInternalUse.class,
                                                ZooKeeperStoreProvider.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ZooKeeperStoreAssembly")
                .hasMessageContaining("the internal package of io.cosid.store.zookeeper");
    }

    @Test
    @DisplayName("a new backend reaching into another backend")
    void backendUsesAnother() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.EVERY_BACKEND_KEEPS_TO_ITSELF.check(
                                        planted(PlantedBackendProvider.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("InMemoryStores")
                .hasMessageContaining(
                        "backend io.cosid.store.planted uses io.cosid.store.inmemory");
    }

    @Test
    @DisplayName("internal packages are exempt from the public-signature rule")
    void internalExempt() {
        assertThatCode(
                        () ->
                                ArchitectureRules.publicSignaturesFreeOfInfrastructure(
                                                ArchitectureRules.ZOOKEEPER_ENTRY_POINT)
                                        .check(
                                                planted(
                                                        io.cosid.store.zookeeper.internal
                                                                .PlantedInternalWiring.class,
                                                        PlantedCycleA.class)))
                .doesNotThrowAnyException();
    }

    @Test
    @DisplayName("a package cycle")
    void cycle() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.NO_PACKAGE_CYCLES.check(
                                        planted(PlantedCycleA.class, PlantedCycleB.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle");
    }

    @Test
    @DisplayName("a tiny import")
    void tinyImport() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.importHoldsEveryModule(40)
                                        .check(planted(PlantedCycleA.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("imported 1 classes");
        assertThatCode(
                        () ->
                                ArchitectureRules.NO_PACKAGE_CYCLES.check(
                                        planted(PlantedCycleA.class)))
                .as("a rule alone passes on a tiny import; that is why the sanity rule exists")
                .doesNotThrowAnyException();
    }

    @Test
    @DisplayName("the ZooKeeper range room importing the slot room")
    void rangesUseSlots() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.RANGES_AND_SLOTS_APART.check(
                                        planted(PlantedSlotUse.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedSlotUse")
                .hasMessageContaining("ZooKeeperSlotLeaseStore");
    }

    @Test
    @DisplayName("the ZooKeeper slot room importing the range room")
    void slotsUseRanges() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.RANGES_AND_SLOTS_APART.check(
                                        planted(PlantedRangeUse.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedRangeUse")
                .hasMessageContaining("ZooKeeperRangeStore");
    }

    @Test
    @DisplayName("the ZooKeeper wire room importing a store")
    void wireUsesStore() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.WIRE_KNOWS_NO_STORE.check(
                                        planted(PlantedStoreUse.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedStoreUse")
                .hasMessageContaining("ZooKeeperRangeStore");
    }

    @Test
    @DisplayName("the ZooKeeper connect room importing the wire room")
    void connectUsesWire() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.CONNECT_IMPORTS_NO_ROOM.check(
                                        planted(PlantedWireUse.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedWireUse")
                .hasMessageContaining("NodePaths");
    }

    @Test
    @DisplayName("store-jdbc's range room using the slot room")
    void jdbcRangeUsesSlots() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.JDBC_RANGES_AND_SLOTS_APART.check(
                                        planted(RangePlantedSlotUse.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("RangePlantedSlotUse")
                .hasMessageContaining("SlotRows");
    }

    @Test
    @DisplayName("store-jdbc's session layer using a store class")
    void jdbcBelowUsesStore() {
        assertThatThrownBy(
                        () ->
                                ArchitectureRules.JDBC_BELOW_KNOWS_NO_STORE.check(
                                        planted(SessionPlantedStoreUse.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("SessionPlantedStoreUse")
                .hasMessageContaining("JdbcOptions");
    }
}
