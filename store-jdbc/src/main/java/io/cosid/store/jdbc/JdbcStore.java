package io.cosid.store.jdbc;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.Settlements;
import java.sql.PreparedStatement;
import java.util.Optional;

/** Both stores of one JDBC store instance over one data source, sharing its lifecycle. */
final class JdbcStore implements Store {

    private final String name;
    private final JdbcCalls calls;
    private final TableNames names;
    private final Settlements settlements;
    private final JdbcRangeStore ranges;
    private final JdbcSlotLeaseStore slots;
    private final AutoCloseable owned;
    private final JdbcCalls settling;

    /**
     * @param settlements where timed-out acquires and releases are finished
     * @param owned what closing the store closes besides (a pool it built); a no-op for the
     *     application's data source
     */
    JdbcStore(
            String name,
            JdbcCalls calls,
            JdbcCalls settling,
            TableNames names,
            Dialect dialect,
            StoreClock clock,
            Settlements settlements,
            AutoCloseable owned) {
        this.name = name;
        this.calls = calls;
        this.settling = settling;
        this.names = names;
        this.owned = owned;
        this.settlements = settlements;
        this.ranges = new JdbcRangeStore(calls, RangeTable.of(names, dialect));
        this.slots =
                new JdbcSlotLeaseStore(
                        calls, settling, new SlotTables(names, dialect), clock, settlements);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String type() {
        return JdbcStoreProvider.TYPE;
    }

    @Override
    public RangeStore ranges() {
        return ranges;
    }

    @Override
    public SlotLeaseStore slots() {
        return slots;
    }

    @Override
    public Optional<StoreAdmin> admin() {
        return Optional.of(
                () ->
                        calls.transaction(
                                OperationNames.purge(name),
                                session -> {
                                    for (String table :
                                            new String[] {
                                                names.owners(),
                                                names.slots(),
                                                names.namespaces(),
                                                names.ranges()
                                            }) {
                                        try (PreparedStatement s =
                                                session.prepare("DELETE FROM " + table)) {
                                            s.executeUpdate();
                                        }
                                    }
                                    ranges.forget();
                                    slots.forget();
                                    return true;
                                }));
    }

    @Override
    public void close() {
        calls.close();
        settlements.close();
        settling.close();
        try {
            owned.close();
        } catch (Exception e) {
            // closing a pool we built: nothing else to do
        }
    }

    @Override
    public String toString() {
        return "JdbcStore[" + name + ", " + names.ranges() + "]";
    }
}
