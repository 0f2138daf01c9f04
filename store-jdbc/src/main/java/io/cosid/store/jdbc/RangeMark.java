package io.cosid.store.jdbc;

/**
 * What a store knows of a range key's row from its own earlier writes and reads: the row's
 * incarnation (set when the row is inserted, never changed: it plays the part ZooKeeper's creation
 * transaction id plays) and the highest {@code next} seen. A row found with another incarnation was
 * deleted and inserted again; one found below the mark was lowered: both are refused untouched.
 *
 * <p>A key seen sealed stays sealed: one found unsealed was written by hand, and is refused too.
 *
 * @param incarnation the row's incarnation
 * @param highest the highest {@code next} this store saw the row at
 * @param sealed whether this store saw the row sealed
 */
record RangeMark(long incarnation, long highest, boolean sealed) {

    /** This mark raised to {@code next} when higher, sealed when either is. */
    RangeMark seen(long next, boolean nowSealed) {
        return new RangeMark(incarnation, Math.max(highest, next), sealed || nowSealed);
    }
}
