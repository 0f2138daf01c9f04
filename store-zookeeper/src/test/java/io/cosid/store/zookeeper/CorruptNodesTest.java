package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Stored data that does not parse is reported, naming where, and left exactly as it was. */
@DisplayName("Corrupt nodes on ZooKeeper")
class CorruptNodesTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final String SLOT_OK =
            """
            state=held
            owner=a
            lastOwner=a
            incarnation=1
            fence=1
            ttl=30000
            tolerance=1000
            floor=0
            expiresMin=0
            ceilingMin=0
            nextFloor=0
            nonce=n1
            """;

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final Store store = fixture.openStore();

    @AfterEach
    void close() {
        fixture.close();
    }

    @ParameterizedTest(name = "range data \"{0}\"")
    @ValueSource(
            strings = {
                "abc",
                "-5",
                "12x",
                "12:sealedx",
                "12:SEALED",
                "012",
                " 12",
                "12 ",
                "+12",
                "1e3",
                "99999999999999999999",
                "9223372036854775808",
                "12:sealed:sealed",
                ":sealed",
                "12\n",
                "\u0000"
            })
    @DisplayName("a range node that does not parse")
    void range(String garbage) {
        store.ranges().acquire("orders", 5);
        fixture.corruptRange("orders", garbage);
        Object before = fixture.snapshot();
        assertThatThrownBy(() -> fixture.openStore().ranges().acquire("orders", 1))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("orders")
                .hasMessageContaining(fixture.root() + "/range/orders");
        assertThatThrownBy(() -> store.ranges().seal("orders"))
                .isInstanceOf(StoreCorruptedException.class);
        assertThat(fixture.snapshot()).isEqualTo(before);
    }

    @Test
    @DisplayName("a range node emptied after it was written")
    void emptiedRange() {
        store.ranges().acquire("orders", 5);
        fixture.corruptRange("orders", "");
        assertThatThrownBy(() -> fixture.openStore().ranges().peek("orders"))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("empty");
    }

    @Test
    @DisplayName("a range node deleted behind the store's back is refused, not restarted at 0")
    void deletedRange() throws Exception {
        store.ranges().acquire("orders", 5);
        fixture.admin().delete().forPath(fixture.root() + "/range/orders");
        Object before = fixture.fullSnapshot();
        assertThatThrownBy(() -> store.ranges().seal("orders"))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("deleted");
        assertThatThrownBy(() -> store.ranges().acquire("orders", 1))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("deleted");
        assertThat(fixture.raw("/range/orders")).isNull();
        assertThat(fixture.fullSnapshot())
                .as("nothing created while refusing, {root}/.wrap included")
                .isEqualTo(before);
    }

    @Test
    @DisplayName(
            "a clock node deleted by hand stops acquires, naming the repair; defining the namespace"
                    + " again repairs it")
    void deletedClock() throws Exception {
        store.slots().define("workers", 4, Duration.ofSeconds(1));
        fixture.admin().delete().forPath(fixture.root() + "/slot/workers/.clock");
        Object before = fixture.fullSnapshot();
        assertThatThrownBy(() -> store.slots().acquire("workers", "a", Duration.ofSeconds(10)))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining(".clock")
                .hasMessageContaining("define the namespace again");
        assertThat(fixture.fullSnapshot()).isEqualTo(before);
        store.slots().define("workers", 4, Duration.ofSeconds(1));
        assertThat(store.slots().acquire("workers", "a", Duration.ofSeconds(10)).slot()).isZero();
    }

    @ParameterizedTest(name = "slot data case {index}")
    @ValueSource(
            strings = {
                "",
                "garbage",
                "state=held\n",
                """
                state=lost
                owner=a
                lastOwner=a
                incarnation=1
                fence=1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=b
                lastOwner=a
                incarnation=1
                fence=1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=-1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=9223372036854775808
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=1
                ttl=0
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                extra=1
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=1
                fence=2
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=a/b
                lastOwner=a/b
                incarnation=1
                fence=1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """,
                """
                state=released
                owner=
                lastOwner=a
                incarnation=1
                fence=1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=50
                ceilingMin=10
                nextFloor=0
                nonce=n1
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=1
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=
                """,
                """
                state=held
                owner=a
                lastOwner=a
                incarnation=1
                fence=01
                ttl=30000
                tolerance=1000
                floor=0
                expiresMin=0
                ceilingMin=0
                nextFloor=0
                nonce=n1
                """
            })
    @DisplayName("a slot node that does not parse")
    void slot(String garbage) {
        store.slots().define("workers", 4, Duration.ofSeconds(1));
        assertThat(SLOT_OK).isNotEqualTo(garbage);
        fixture.corruptSlot("workers", 0, garbage);
        Object before = fixture.snapshot();
        assertThatThrownBy(() -> store.slots().acquire("workers", "a", Duration.ofSeconds(10)))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("slot 0 of namespace 'workers'");
        assertThatThrownBy(() -> store.slots().inspect("workers"))
                .isInstanceOf(StoreCorruptedException.class);
        assertThat(fixture.snapshot()).isEqualTo(before);
    }

    @Test
    @DisplayName("a well-formed slot written by hand is read as a held term (the control case)")
    void wellFormedSlot() {
        store.slots().define("workers", 4, Duration.ofSeconds(1));
        fixture.corruptSlot("workers", 0, SLOT_OK);
        assertThat(store.slots().inspect("workers").slots())
                .singleElement()
                .satisfies(v -> assertThat(v.ownerKey()).isEqualTo("a"));
    }

    @ParameterizedTest(name = "namespace data \"{0}\"")
    @ValueSource(
            strings = {
                "",
                "limit=4\n",
                "limit=0\ntolerance=0\n",
                "limit=4\ntolerance=-1\n",
                "limit=70000\ntolerance=0\n",
                "limit=4\ntolerance=0\ncolor=red\n",
                "limit=four\ntolerance=0\n"
            })
    @DisplayName("a namespace node that does not parse")
    void namespace(String garbage) {
        store.slots().define("workers", 4, Duration.ZERO);
        fixture.corruptNamespace("workers", garbage);
        Object before = fixture.snapshot();
        assertThatThrownBy(() -> store.slots().define("workers", 4, Duration.ZERO))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("namespace 'workers'");
        assertThatThrownBy(() -> store.slots().acquire("workers", "a", Duration.ofSeconds(1)))
                .isInstanceOf(StoreCorruptedException.class);
        assertThat(fixture.snapshot()).isEqualTo(before);
    }

    @ParameterizedTest(name = "owner index \"{0}\"")
    @ValueSource(
            strings = {
                "",
                "slots=a\nnonce=x\n",
                "slots=1,1\nnonce=x\n",
                "slots=-1\nnonce=x\n",
                "slots=0,1,2,3,4,5,6,7,8\nnonce=x\n",
                "slots=1\n"
            })
    @DisplayName("an owner index that does not parse")
    void ownerIndex(String garbage) {
        store.slots().define("workers", 4, Duration.ZERO);
        fixture.corruptOwnerIndex("workers", "a", garbage);
        Object before = fixture.snapshot();
        assertThatThrownBy(() -> store.slots().acquire("workers", "a", Duration.ofSeconds(1)))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("owner index of 'a'");
        assertThat(fixture.snapshot()).isEqualTo(before);
    }
}
