package io.cosid.store.jdbc;

/** Planted: store-jdbc's range room using the slot room. */
public class RangePlantedSlotUse {
    /**
     * What a slot read selects.
     *
     * @return the columns
     */
    public static String columns() {
        return SlotRows.select(Dialect.POSTGRESQL);
    }
}
