package io.cosid.store.spi;

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
        long sent = System.nanoTime();
        SlotLease lease = reporter.run(Operation.SLOT_ACQUIRE, namespace, acquire);
        terms.began(lease, sent);
        report(
                LeaseEvent.Kind.ACQUIRED,
                lease,
                terms.validFor(lease, System.nanoTime()),
                Duration.ZERO);
        return lease;
    }

    @Override
    public SlotLease renew(SlotLease lease) {
        long sent = System.nanoTime();
        Duration margin = lease == null ? Duration.ZERO : terms.validFor(lease, sent);
        SlotLease renewed =
                lostIfSo(
                        lease,
                        () ->
                                reporter.run(
                                        Operation.SLOT_RENEW,
                                        subject(lease),
                                        () -> slots.renew(lease)));
        terms.ended(lease);
        terms.began(renewed, sent);
        report(
                LeaseEvent.Kind.RENEWED,
                renewed,
                terms.validFor(renewed, System.nanoTime()),
                margin);
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
        Instant end =
                lostIfSo(
                        lease, () -> reporter.run(Operation.SLOT_RELEASE, subject(lease), release));
        terms.ended(lease);
        report(LeaseEvent.Kind.RELEASED, lease, Duration.ZERO, Duration.ZERO);
        return end;
    }

    /** Runs a renew or release; a lease found lost is reported so. */
    private <T> T lostIfSo(SlotLease lease, Supplier<T> call) {
        try {
            return call.get();
        } catch (LeaseLostException e) {
            if (lease != null) {
                terms.ended(lease);
                report(LeaseEvent.Kind.LOST, lease, Duration.ZERO, Duration.ZERO);
            }
            throw e;
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

    private static String subject(SlotLease lease) {
        return lease == null ? "" : lease.namespace();
    }
}
