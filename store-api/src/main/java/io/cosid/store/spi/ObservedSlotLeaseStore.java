package io.cosid.store.spi;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotView;
import io.cosid.store.StoreObserver.LeaseEvent;
import io.cosid.store.StoreObserver.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A slot lease store whose operations are reported ({@link ObservedStore}), and the leases of its
 * callers with them.
 */
final class ObservedSlotLeaseStore implements SlotLeaseStore {

    private final SlotLeaseStore slots;
    private final Reporter reporter;
    private final LeaseTerms terms = new LeaseTerms();

    ObservedSlotLeaseStore(SlotLeaseStore slots, Reporter reporter) {
        this.slots = slots;
        this.reporter = reporter;
    }

    @Override
    public Namespace define(String namespace, int limit, Duration tolerance) {
        return reporter.run(
                Operation.NAMESPACE_DEFINE,
                namespace,
                () -> slots.define(namespace, limit, tolerance));
    }

    @Override
    public Optional<Namespace> namespace(String namespace) {
        return reporter.run(Operation.NAMESPACE_GET, namespace, () -> slots.namespace(namespace));
    }

    @Override
    public List<Namespace> namespaces() {
        return reporter.run(Operation.NAMESPACE_LIST, "", slots::namespaces);
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl) {
        return acquired(namespace, () -> slots.acquire(namespace, ownerKey, ttl));
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl, int preferredSlot) {
        return acquired(namespace, () -> slots.acquire(namespace, ownerKey, ttl, preferredSlot));
    }

    private SlotLease acquired(String namespace, Supplier<SlotLease> acquire) {
        return reporter.run(
                Operation.SLOT_ACQUIRE,
                namespace,
                () -> {
                    long sent = System.nanoTime();
                    SlotLease lease = acquire.get();
                    terms.began(lease, sent);
                    report(LeaseEvent.Kind.ACQUIRED, lease, validFor(lease, sent), Duration.ZERO);
                    return lease;
                });
    }

    @Override
    public SlotLease renew(SlotLease lease) {
        return reporter.run(Operation.SLOT_RENEW, subject(lease), () -> renewed(lease));
    }

    private SlotLease renewed(SlotLease lease) {
        long sent = System.nanoTime();
        SlotLease renewed = endingIfLost(lease, () -> slots.renew(lease));
        Duration margin = terms.renewed(lease, renewed, sent);
        report(LeaseEvent.Kind.RENEWED, renewed, validFor(renewed, sent), margin);
        return renewed;
    }

    @Override
    public Instant release(SlotLease lease) {
        return released(lease, () -> slots.release(lease));
    }

    @Override
    public Instant release(SlotLease lease, Instant stampedBefore) {
        return released(lease, () -> slots.release(lease, stampedBefore));
    }

    private Instant released(SlotLease lease, Supplier<Instant> release) {
        return reporter.run(
                Operation.SLOT_RELEASE,
                subject(lease),
                () -> {
                    Instant end = endingIfLost(lease, release);
                    terms.ended(lease);
                    report(LeaseEvent.Kind.RELEASED, lease, Duration.ZERO, Duration.ZERO);
                    return end;
                });
    }

    /** {@code call}'s result; when it fails finding the lease no longer the caller's, lost. */
    private <T> T endingIfLost(@Nullable SlotLease lease, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException | Error e) {
            lostIfSo(lease, e);
            throw e;
        }
    }

    /** After a renew or release failed: a lease found no longer the caller's is reported lost. */
    private void lostIfSo(@Nullable SlotLease lease, Throwable failure) {
        if (failure instanceof LeaseLostException && lease != null) {
            terms.ended(lease);
            report(LeaseEvent.Kind.LOST, lease, Duration.ZERO, Duration.ZERO);
        }
    }

    @Override
    public SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast) {
        return reporter.run(
                Operation.SLOT_ADVANCE,
                namespace,
                () -> slots.advance(namespace, slot, fenceAtLeast, floorAtLeast));
    }

    @Override
    public NamespaceSnapshot inspect(String namespace) {
        return reporter.run(Operation.SLOT_INSPECT, namespace, () -> slots.inspect(namespace));
    }

    private void report(LeaseEvent.Kind kind, SlotLease lease, Duration validFor, Duration margin) {
        reporter.observer()
                .lease(
                        new LeaseEvent(
                                reporter.store(), reporter.type(), kind, lease, validFor, margin));
    }

    /** {@link LeaseGuard}'s rule: the TTL counted from when the request was sent. */
    private static Duration validFor(SlotLease lease, long sent) {
        return LeaseTerms.left(sent, lease.ttl().toNanos(), System.nanoTime());
    }

    private static String subject(@Nullable SlotLease lease) {
        return lease == null ? "" : lease.namespace();
    }
}
