package io.cosid.store.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The modules keep to the architecture")
class ArchitectureTest {

    private static JavaClasses production;

    @BeforeAll
    static void importModules() {
        production =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        // test jars on this class path (the starter's fleet harness) are tests too
                        .withImportOption(location -> !location.contains("-tests.jar"))
                        .importPackages("io.cosid");
    }

    @Test
    @DisplayName("the import holds every module (sanity: a tiny import would pass every rule)")
    void importIsReal() {
        ArchitectureRules.importHoldsEveryModule(40).check(production);
    }

    @Test
    @DisplayName("store-api depends only on the JDK")
    void apiIsPure() {
        ArchitectureRules.API_DEPENDS_ONLY_ON_THE_JDK.check(production);
    }

    @Test
    @DisplayName(
            "the backends' shared rules (io.cosid.store.spi) depend only on the JDK and the API")
    void spiIsPure() {
        ArchitectureRules.SPI_DEPENDS_ONLY_ON_THE_JDK_AND_THE_API.check(production);
    }

    @Test
    @DisplayName(
            "every backend uses of the project only the API, the spi and itself; its internal"
                    + " packages are its own")
    void backendsKeepToThemselves() {
        ArchitectureRules.EVERY_BACKEND_KEEPS_TO_ITSELF.check(production);
    }

    @Test
    @DisplayName("store-cosid depends only on store-api and CosId, never on a backend")
    void cosIdOnApi() {
        ArchitectureRules.COSID_DEPENDS_ONLY_ON_THE_API_AND_COSID.check(production);
    }

    @Test
    @DisplayName("store-micrometer depends only on store-api and Micrometer, never on a backend")
    void micrometerOnApi() {
        ArchitectureRules.MICROMETER_DEPENDS_ONLY_ON_THE_API_AND_MICROMETER.check(production);
    }

    @Test
    @DisplayName("store-tck depends only on store-api and the test libraries")
    void tckOnApi() {
        ArchitectureRules.TCK_DEPENDS_ONLY_ON_THE_API_AND_TEST_LIBRARIES.check(production);
    }

    @Test
    @DisplayName("no ZooKeeper, Curator, Dagger or jakarta.inject type in store-api")
    void noInfrastructureInApi() {
        ArchitectureRules.NO_INFRASTRUCTURE_IN_THE_API.check(production);
    }

    @Test
    @DisplayName("the Spring Boot starter keeps Curator and ZooKeeper out of its public signatures")
    void starterSignatures() {
        JavaClasses starter =
                production.that(JavaClass.Predicates.resideInAPackage("io.cosid.store.spring"));
        assertThat(starter.contain("io.cosid.store.spring.CosIdStoreAutoConfiguration"))
                .as("the starter is in the import")
                .isTrue();
        ArchitectureRules.publicSignaturesFreeOfInfrastructure(
                        ArchitectureRules.ZOOKEEPER_ENTRY_POINT)
                .check(starter);
    }

    @Test
    @DisplayName("no infrastructure type in any public signature but the ZooKeeper entry point")
    void publicSignatures() {
        ArchitectureRules.publicSignaturesFreeOfInfrastructure(
                        ArchitectureRules.ZOOKEEPER_ENTRY_POINT)
                .check(production);
    }

    @Test
    @DisplayName("store-jdbc's range and slot rooms never import each other")
    void jdbcRoomsApart() {
        ArchitectureRules.JDBC_RANGES_AND_SLOTS_APART.check(production);
    }

    @Test
    @DisplayName("store-jdbc's calls, session, dialect, schema and pool import no store class")
    void jdbcBelowKnowsNoStore() {
        ArchitectureRules.JDBC_BELOW_KNOWS_NO_STORE.check(production);
    }

    @Test
    @DisplayName("no package cycles")
    void noCycles() {
        ArchitectureRules.NO_PACKAGE_CYCLES.check(production);
    }

    @Test
    @DisplayName("the ZooKeeper range and slot rooms never import each other")
    void rangesAndSlotsApart() {
        ArchitectureRules.RANGES_AND_SLOTS_APART.check(production);
    }

    @Test
    @DisplayName("the ZooKeeper wire and connect rooms import no store")
    void wireKnowsNoStore() {
        ArchitectureRules.WIRE_KNOWS_NO_STORE.check(production);
    }

    @Test
    @DisplayName("the ZooKeeper connect room imports no other room")
    void connectImportsNoRoom() {
        ArchitectureRules.CONNECT_IMPORTS_NO_ROOM.check(production);
    }
}
