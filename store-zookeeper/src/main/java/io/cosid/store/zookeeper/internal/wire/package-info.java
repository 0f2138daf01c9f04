/**
 * Requests and replies: the node layout, reads, the one place that sends a conditional write and
 * turns its reply into an outcome ({@link
 * io.cosid.store.zookeeper.internal.wire.ConditionalWrite}), retries across connection loss, the
 * deadline of each call and what the store reports to its log and observer. Knows nodes and
 * versions, never ranges or slots.
 */
@NullMarked
package io.cosid.store.zookeeper.internal.wire;

import org.jspecify.annotations.NullMarked;
