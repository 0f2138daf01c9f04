package io.cosid.store.jdbc;

/**
 * The three writes of a range key, each one statement ({@link RangeTable}): what it sets the row to
 * and what must hold for it to land. In the templates {@code $v} stands for the write's value,
 * {@code r} for the row.
 */
enum RangeStatement {
    /** Adds the value (a size) to {@code next}: the range is what lies between. */
    ACQUIRE(
            "r.next_value + $v",
            "r.sealed",
            "NOT r.sealed AND r.next_value <= 9223372036854775807 - $v",
            false),
    /** Raises {@code next} to at least the value; never lowers it. Refused on a sealed key. */
    ADVANCE("GREATEST(r.next_value, $v)", "r.sealed", "NOT r.sealed", false),
    /** Seals the key at its {@code next}; a key never used is sealed at 0. Idempotent. */
    SEAL("r.next_value", "true", "true", true);

    /** The row's new {@code next_value}. */
    final String next;

    /** The row's new {@code sealed}. */
    final String sealed;

    /** What must hold of the row for the write to land. */
    final String guard;

    /** Whether a row this write inserts is sealed (and starts at 0). */
    final boolean insertsSealed;

    RangeStatement(String next, String sealed, String guard, boolean insertsSealed) {
        this.next = next;
        this.sealed = sealed;
        this.guard = guard;
        this.insertsSealed = insertsSealed;
    }
}
