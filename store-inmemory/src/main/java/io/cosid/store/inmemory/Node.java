package io.cosid.store.inmemory;

import io.cosid.store.StoreCorruptedException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the backend keeps under one name: a value, or garbage that a test planted in its place. The
 * generation changes only when the node is created, like ZooKeeper's czxid, so that a store can
 * tell a node it wrote from one recreated behind its back; the version counts the writes since,
 * like ZooKeeper's data version, so that a write of an identical value still shows.
 */
record Node<T>(@Nullable T value, @Nullable String garbage, long generation, long version) {

    static <T> Node<T> of(T value, long generation) {
        return new Node<>(value, null, generation, 0);
    }

    static <T> Node<T> corrupt(String garbage, long generation) {
        return new Node<>(null, garbage, generation, 0);
    }

    /** The same node with a new value: the generation stays, the version counts one more write. */
    Node<T> with(T newValue) {
        return new Node<>(newValue, null, generation, version + 1);
    }

    /** The value, or a report of the garbage found instead; never a guess. */
    T read(String location) {
        if (garbage != null) {
            throw new StoreCorruptedException(location, "'" + garbage + "' does not parse");
        }
        return Objects.requireNonNull(value, "a node without garbage holds a value");
    }
}
