package io.cosid.store.zookeeper.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.proto.SetDataRequest;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("A node change")
class NodeChangeTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final NodePaths paths = new NodePaths("/cosid");
    private final byte[] current = "41".getBytes(StandardCharsets.US_ASCII);
    private final byte[] next = "42".getBytes(StandardCharsets.US_ASCII);

    @Nested
    @DisplayName("with a stubbed data version")
    class Stubbed {

        @ParameterizedTest(name = "version {0}")
        @ValueSource(ints = {0, 1, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, -2})
        @DisplayName("is one setData carrying exactly the version it read, across the wrap")
        void carriesVersion(int version) {
            NodeChange change = NodeChange.replace("/cosid/range/k", version, current, next);
            List<Op> ops = change.ops(paths);
            assertThat(ops).singleElement().isInstanceOf(Op.SetData.class);
            assertThat(change.needsClaim()).isFalse();
            assertThat(((SetDataRequest) ops.get(0).toRequestRecord()).getVersion())
                    .isEqualTo(version);
        }

        @Test
        @DisplayName(
                "at version -1 never relies on -1: a claim named after node and data comes first in"
                        + " one multi")
        void claimsAtTheWrap() {
            NodeChange change = NodeChange.replace("/cosid/range/k", -1, current, next);
            List<Op> ops = change.ops(paths);
            assertThat(change.needsClaim()).isTrue();
            assertThat(ops).hasSize(2);
            assertThat(ops.get(0)).isInstanceOf(Op.Create.class);
            assertThat(ops.get(0).getPath())
                    .isEqualTo(paths.wrapClaim("/cosid/range/k", current))
                    .startsWith("/cosid/.wrap/");
            assertThat(ops.get(1)).isInstanceOf(Op.SetData.class);
            assertThat(((SetDataRequest) ops.get(1).toRequestRecord()).getData()).isEqualTo(next);
            assertThat(paths.wrapClaim("/cosid/range/k", next)).isNotEqualTo(ops.get(0).getPath());
            assertThat(paths.wrapClaim("/cosid/range/j", current))
                    .isNotEqualTo(ops.get(0).getPath());
        }
    }

    @Test
    @DisplayName(
            "only a create or a replace lands just once, so only a write with one of them may be"
                    + " sent again after a lost reply")
    void whatLandsOnce() {
        assertThat(NodeChange.create("/n", next).landsOnce()).isTrue();
        assertThat(NodeChange.replace("/n", 4, current, next).landsOnce()).isTrue();
        assertThat(NodeChange.replace("/n", -1, current, next).landsOnce())
                .as("at the wrap the claim lands once")
                .isTrue();
        assertThat(NodeChange.check("/n", 4).landsOnce()).isFalse();
        assertThat(NodeChange.delete("/n", -1).landsOnce()).isFalse();
        assertThat(NodeChange.hint("/n", next).landsOnce()).isFalse();
    }

    @Test
    @DisplayName(
            "on a real server, only the first of two writers that read the same state at the wrap"
                    + " gets through")
    void claimIsExclusive() throws Exception {
        try (CuratorFramework client =
                CuratorFrameworkFactory.newClient(
                        SERVER.server().connectString(), new RetryOneTime(100))) {
            client.start();
            assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
            NodePaths real = new NodePaths("/wrap-test-" + System.nanoTime());
            String node = real.range("k");
            client.create().creatingParentsIfNeeded().forPath(node, current);
            client.create().creatingParentsIfNeeded().forPath(real.wrapRoot());
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();

            List<OpResult> first = zk.multi(NodeChange.replace(node, -1, current, next).ops(real));
            assertThat(first).hasSize(2);
            assertThat(new String(client.getData().forPath(node), StandardCharsets.US_ASCII))
                    .isEqualTo("42");

            byte[] other = "43".getBytes(StandardCharsets.US_ASCII);
            KeeperException refused =
                    Assertions.assertThrows(
                            KeeperException.class,
                            () -> zk.multi(NodeChange.replace(node, -1, current, other).ops(real)));
            assertThat(refused.code()).isEqualTo(KeeperException.Code.NODEEXISTS);
            assertThat(new String(client.getData().forPath(node), StandardCharsets.US_ASCII))
                    .isEqualTo("42");
        }
    }
}
