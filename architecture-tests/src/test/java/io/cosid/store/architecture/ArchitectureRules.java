package io.cosid.store.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.all;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.AbstractClassesTransformer;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The architecture of cosid-store as rules. Each is checked against the real modules ({@link
 * ArchitectureTest}) and shown to fail on a planted violation ({@link RulesCatchViolationsTest}).
 */
final class ArchitectureRules {

    static final String API = "io.cosid.store";
    static final String SPI = "io.cosid.store.spi..";
    static final String TCK = "io.cosid.store.tck..";
    static final String COSID = "io.cosid.store.cosid..";
    static final String MICROMETER = "io.cosid.store.micrometer..";
    static final String INTERNAL = "..internal..";

    /** JSpecify's nullness annotations: they mark what may be null, and have no behaviour. */
    static final String NULLNESS = "org.jspecify.annotations..";

    static final String[] INFRASTRUCTURE = {
        "org.apache.zookeeper..",
        "org.apache.curator..",
        "dagger..",
        "jakarta.inject..",
        "javax.inject.."
    };

    /**
     * The one public place that may take a ZooKeeper/Curator type: a caller's own CuratorFramework.
     */
    static final String ZOOKEEPER_ENTRY_POINT = "io.cosid.store.zookeeper.ZooKeeperStores";

    private static final String CURATOR_FRAMEWORK = "org.apache.curator.framework.CuratorFramework";

    private ArchitectureRules() {}

    /** store-api is pure Java: it depends on the JDK and itself, nothing else (an allow-list). */
    static final ArchRule API_DEPENDS_ONLY_ON_THE_JDK =
            classes()
                    .that()
                    .resideInAPackage(API)
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage("java..", NULLNESS, API)
                    .as("store-api depends only on java.. and JSpecify's annotations (allow-list)");

    /** The backends' shared rules are pure Java too: the JDK, the API and themselves. */
    static final ArchRule SPI_DEPENDS_ONLY_ON_THE_JDK_AND_THE_API =
            classes()
                    .that()
                    .resideInAPackage(SPI)
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage("java..", NULLNESS, API, SPI)
                    .as(
                            "io.cosid.store.spi depends only on java.. and io.cosid.store"
                                    + " (allow-list)");

    /**
     * Every backend keeps to itself, found by what makes it one (a package {@code
     * io.cosid.store.<name>} that holds a {@code StoreProvider}), so that a new backend is covered
     * without a rule of its own: of the project's packages it uses the API, the spi and its own,
     * never another backend's, the TCK or an integration; and its {@code internal} packages are
     * used by nothing outside it.
     */
    static final ArchRule EVERY_BACKEND_KEEPS_TO_ITSELF =
            classes()
                    .should(new KeepsToItsBackend())
                    .as(
                            "every backend (a package holding a StoreProvider) uses of the project"
                                    + " only the API, the spi and itself, and its internal packages"
                                    + " are its own");

    /**
     * The CosId integration is written against the API and CosId's interfaces, so that it works on
     * every backend: never a backend, never ZooKeeper or Curator.
     */
    static final ArchRule COSID_DEPENDS_ONLY_ON_THE_API_AND_COSID =
            classes()
                    .that()
                    .resideInAPackage(COSID)
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage("java..", NULLNESS, API, COSID, "me.ahoo.cosid..")
                    .as("store-cosid depends only on store-api and CosId");

    /**
     * The Micrometer binding is written against the API and Micrometer, so that it measures every
     * backend: never a backend, never ZooKeeper or Curator.
     */
    static final ArchRule MICROMETER_DEPENDS_ONLY_ON_THE_API_AND_MICROMETER =
            classes()
                    .that()
                    .resideInAPackage(MICROMETER)
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage(
                            "java..",
                            NULLNESS,
                            API,
                            MICROMETER,
                            "io.micrometer.core..",
                            "io.micrometer.observation..",
                            "io.micrometer.common..")
                    .as("store-micrometer depends only on store-api and Micrometer");

    /** The TCK is written against the API and the test libraries, never against a backend. */
    static final ArchRule TCK_DEPENDS_ONLY_ON_THE_API_AND_TEST_LIBRARIES =
            classes()
                    .that()
                    .resideInAPackage(TCK)
                    .should()
                    .onlyDependOnClassesThat()
                    .resideInAnyPackage(
                            "java..",
                            NULLNESS,
                            API,
                            TCK,
                            "org.junit..",
                            "org.assertj..",
                            "org.awaitility..",
                            "org.opentest4j..")
                    .as("store-tck depends only on store-api and JUnit/AssertJ/Awaitility");

    /** No ZooKeeper, Curator, Dagger or jakarta.inject type anywhere in store-api. */
    static final ArchRule NO_INFRASTRUCTURE_IN_THE_API =
            noClasses()
                    .that()
                    .resideInAnyPackage(API, SPI)
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(INFRASTRUCTURE)
                    .as("store-api uses no ZooKeeper, Curator, Dagger or jakarta.inject type");

    /** The ZooKeeper backend's rooms (store-zookeeper/README.md, "Where things are"). */
    static final String ZK_ASSEMBLY = "io.cosid.store.zookeeper.internal";

    static final String ZK_CONNECT = "io.cosid.store.zookeeper.internal.connect..";
    static final String ZK_WIRE = "io.cosid.store.zookeeper.internal.wire..";
    static final String ZK_RANGES = "io.cosid.store.zookeeper.internal.ranges..";
    static final String ZK_SLOTS = "io.cosid.store.zookeeper.internal.slots..";

    /**
     * The range room and the slot room never use each other: what both need (requests, replies,
     * conditional writes, the layout) lives in the wire room below them.
     */
    static final ArchRule RANGES_AND_SLOTS_APART =
            CompositeArchRule.of(
                            noClasses()
                                    .that()
                                    .resideInAPackage(ZK_RANGES)
                                    .should()
                                    .dependOnClassesThat()
                                    .resideInAPackage(ZK_SLOTS)
                                    .allowEmptyShould(true))
                    .and(
                            noClasses()
                                    .that()
                                    .resideInAPackage(ZK_SLOTS)
                                    .should()
                                    .dependOnClassesThat()
                                    .resideInAPackage(ZK_RANGES)
                                    .allowEmptyShould(true))
                    .as("the ZooKeeper range and slot rooms never import each other");

    /** The wire room knows nodes and versions, never a store: no range, slot or assembly type. */
    static final ArchRule WIRE_KNOWS_NO_STORE =
            noClasses()
                    .that()
                    .resideInAnyPackage(ZK_WIRE, ZK_CONNECT)
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(ZK_RANGES, ZK_SLOTS, ZK_ASSEMBLY)
                    .as("the ZooKeeper wire and connect rooms import no store");

    /** How a store connects is below the wire: the connect room imports no other room. */
    static final ArchRule CONNECT_IMPORTS_NO_ROOM =
            noClasses()
                    .that()
                    .resideInAPackage(ZK_CONNECT)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(ZK_WIRE)
                    .as("the ZooKeeper connect room imports no other room");

    /** store-jdbc's rooms, by class name (one package, whose classes are package-private). */
    private static final String JDBC_CLASS = "io\\.cosid\\.store\\.jdbc\\.";

    /** Where a range acquire is decided: the range store, its tables and its refusals. */
    static final DescribedPredicate<JavaClass> JDBC_RANGE_ROOM =
            jdbcClasses("(Range|JdbcRangeStore|MySqlRangeTable|PostgresRangeTable)\\w*")
                    .as("store-jdbc's range room (Range*, JdbcRangeStore, *RangeTable)");

    /** Where a slot's terms are decided: the slot store, its rows, tables and writes. */
    static final DescribedPredicate<JavaClass> JDBC_SLOT_ROOM =
            jdbcClasses("(Slot|JdbcSlotLeaseStore|NamespaceRows|LostRace)\\w*")
                    .as(
                            "store-jdbc's slot room (Slot*, JdbcSlotLeaseStore, NamespaceRows,"
                                    + " LostRace)");

    /** What every room stands on: calls and sessions, the dialect, the schema, the pool. */
    static final DescribedPredicate<JavaClass> JDBC_BELOW_THE_ROOMS =
            jdbcClasses(
                            "(JdbcCalls|Session|Dialect|Schema|ConnectionPool|BoundedBorrow"
                                + "|PoolWait|DatabaseIdentity|ServerSafety|StoreClock|TableNames"
                                + "|Urls|Provenance|JdbcLog)\\w*")
                    .as("store-jdbc's calls, session, dialect, schema and pool");

    /** The classes of store-jdbc (and classes nested in them) whose names match {@code regex}. */
    private static DescribedPredicate<JavaClass> jdbcClasses(String regex) {
        return DescribedPredicate.describe(
                regex, c -> c.getName().matches(JDBC_CLASS + regex + "(\\$.*)?"));
    }

    /** The JDBC range room and slot room never use each other, as ZooKeeper's rooms do not. */
    static final ArchRule JDBC_RANGES_AND_SLOTS_APART =
            CompositeArchRule.of(
                            noClasses()
                                    .that(JDBC_RANGE_ROOM)
                                    .should()
                                    .dependOnClassesThat(JDBC_SLOT_ROOM)
                                    .allowEmptyShould(true))
                    .and(
                            noClasses()
                                    .that(JDBC_SLOT_ROOM)
                                    .should()
                                    .dependOnClassesThat(JDBC_RANGE_ROOM)
                                    .allowEmptyShould(true))
                    .as("store-jdbc's range and slot rooms never import each other");

    /** Calls, session, dialect, schema and pool know no store: no room, no store class. */
    static final ArchRule JDBC_BELOW_KNOWS_NO_STORE =
            noClasses()
                    .that(JDBC_BELOW_THE_ROOMS)
                    .should()
                    .dependOnClassesThat(
                            JDBC_RANGE_ROOM
                                    .or(JDBC_SLOT_ROOM)
                                    .or(
                                            jdbcClasses(
                                                    "(JdbcStore|JdbcStores|JdbcStoreProvider"
                                                            + "|AfterFailover|JdbcOptions)")))
                    .as(
                            "store-jdbc's calls, session, dialect, schema and pool import no store"
                                    + " class");

    /** Packages of the project never depend on each other in a circle. */
    static final ArchRule NO_PACKAGE_CYCLES =
            slices().matching("io.cosid.(**)")
                    .should()
                    .beFreeOfCycles()
                    .as("no package cycles in io.cosid..");

    /**
     * Public signatures (public and protected members of public types, and the types they extend)
     * use no infrastructure type, except that the entry point may accept a caller's client.
     */
    static ArchRule publicSignaturesFreeOfInfrastructure(String entryPoint) {
        return classes()
                .that()
                .resideInAPackage("io.cosid.store..")
                .and()
                .resideOutsideOfPackage(INTERNAL)
                .and()
                .arePublic()
                .should(haveNoInfrastructureInPublicSignatures(entryPoint))
                .as(
                        "no ZooKeeper, Curator, Dagger or jakarta.inject type in a public signature"
                                + " outside internal packages, except "
                                + entryPoint
                                + " accepting a caller's CuratorFramework");
    }

    /** The import must be the real project: rules pass trivially on an empty or tiny class path. */
    static ArchRule importHoldsEveryModule(int minimumClasses) {
        return all(new AbstractClassesTransformer<JavaClasses>("the import") {
                    @Override
                    public Iterable<JavaClasses> doTransform(JavaClasses imported) {
                        return List.of(imported);
                    }
                })
                .should(containsEveryModule(minimumClasses));
    }

    private static ArchCondition<JavaClasses> containsEveryModule(int minimumClasses) {
        return new ArchCondition<>(
                "contain at least "
                        + minimumClasses
                        + " classes from store-api, store-inmemory and store-tck") {
            @Override
            public void check(JavaClasses imported, ConditionEvents events) {
                boolean api = imported.containPackage(API);
                boolean inMemory = imported.containPackage("io.cosid.store.inmemory");
                boolean tck = imported.containPackage("io.cosid.store.tck");
                boolean enough = imported.size() >= minimumClasses;
                events.add(
                        new SimpleConditionEvent(
                                imported,
                                api && inMemory && tck && enough,
                                "imported "
                                        + imported.size()
                                        + " classes (api="
                                        + api
                                        + ", inmemory="
                                        + inMemory
                                        + ", tck="
                                        + tck
                                        + ")"));
            }
        };
    }

    private static ArchCondition<JavaClass> haveNoInfrastructureInPublicSignatures(
            String entryPoint) {
        DescribedPredicate<JavaClass> infrastructure =
                JavaClass.Predicates.resideInAnyPackage(INFRASTRUCTURE);
        return new ArchCondition<>("have no infrastructure type in a public signature") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                Set<String> leaks = new LinkedHashSet<>();
                type.getRawSuperclass()
                        .filter(infrastructure)
                        .ifPresent(s -> leaks.add("extends " + s.getName()));
                type.getRawInterfaces().stream()
                        .filter(infrastructure)
                        .forEach(i -> leaks.add("implements " + i.getName()));
                for (JavaMember member : type.getMembers()) {
                    if (!isVisible(member)) {
                        continue;
                    }
                    for (JavaClass involved : involvedTypes(member)) {
                        if (!infrastructure.test(involved)) {
                            continue;
                        }
                        boolean allowed =
                                type.getName().equals(entryPoint)
                                        && involved.getName().equals(CURATOR_FRAMEWORK);
                        if (!allowed) {
                            leaks.add(member.getFullName() + " uses " + involved.getName());
                        }
                    }
                }
                leaks.forEach(
                        leak ->
                                events.add(
                                        SimpleConditionEvent.violated(
                                                type, type.getName() + ": " + leak)));
                if (leaks.isEmpty()) {
                    events.add(
                            SimpleConditionEvent.satisfied(
                                    type, type.getName() + " has a clean public signature"));
                }
            }
        };
    }

    private static boolean isVisible(JavaMember member) {
        Set<JavaModifier> modifiers = member.getModifiers();
        return modifiers.contains(JavaModifier.PUBLIC)
                || modifiers.contains(JavaModifier.PROTECTED);
    }

    private static Set<JavaClass> involvedTypes(JavaMember member) {
        Set<JavaClass> types = new LinkedHashSet<>();
        if (member instanceof JavaField field) {
            types.addAll(field.getType().getAllInvolvedRawTypes());
        } else if (member instanceof JavaCodeUnit code) {
            types.addAll(code.getReturnType().getAllInvolvedRawTypes());
            code.getParameterTypes().forEach(p -> types.addAll(p.getAllInvolvedRawTypes()));
            code.getThrowsClause().getTypes().forEach(types::add);
        }
        return types;
    }
}
