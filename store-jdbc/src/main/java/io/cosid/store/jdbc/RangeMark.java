package io.cosid.store.jdbc;

/**
 * What a store knows of a range key's row from its own earlier writes and reads: the row's
 * incarnation (set when the row is inserted, never changed: it plays the part ZooKeeper's creation
 * transaction id plays) and the highest {@code next} seen. A row found with another incarnation was
 * deleted and inserted again; one found below the mark was lowered: both are refused untouched.
 *
 * @param incarnation the row's incarnation
 * @param highest the highest {@code next} this store saw the row at
 */
record RangeMark(long incarnation, long highest) {

    /** This mark raised to {@code next}, when higher. */
    RangeMark seen(long next) {
        return next > highest ? new RangeMark(incarnation, next) : this;
    }
}
