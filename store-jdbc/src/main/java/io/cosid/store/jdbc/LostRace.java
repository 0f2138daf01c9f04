package io.cosid.store.jdbc;

/**
 * A slot's row created by another store between this operation's read and its insert (only a row
 * deleted by hand is ever inserted again): the operation's transaction is rolled back and it starts
 * over within its budget.
 */
final class LostRace extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LostRace() {
        super("another store created the slot's row first", null, false, false);
    }
}
