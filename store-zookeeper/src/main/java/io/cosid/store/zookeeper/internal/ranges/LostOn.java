package io.cosid.store.zookeeper.internal.ranges;

import org.jspecify.annotations.Nullable;

/**
 * Where a range write that lost its race failed: the range room's one reading of {@link
 * io.cosid.store.zookeeper.internal.wire.WriteOutcome#failedOn()}, taken by the key's memory
 * ({@link RangeKey}) and by the write's next step ({@link RangeWrite}) alike.
 */
enum LostOn {
    /**
     * A seat of the key's line went before the write could serve it, or a result the store read is
     * gone already: the key and the line stand as read.
     */
    SEAT,
    /** The line's version: seats were posted since this store read the line; the key stands. */
    LINE,
    /** The key itself (or nothing the reply names): another writer moved it. */
    KEY;

    /**
     * Where the write failed.
     *
     * @param failedOn the node the reply names, if any
     * @param line the key's line node
     */
    static LostOn of(@Nullable String failedOn, String line) {
        if (failedOn != null && failedOn.startsWith(line + "/")) {
            return SEAT;
        }
        return line.equals(failedOn) ? LINE : KEY;
    }
}
