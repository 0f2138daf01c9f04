/**
 * The technology compatibility kit: the contract of {@code docs/contract.md} as JUnit tests that
 * every backend runs.
 *
 * <p>A backend plugs in with one {@link io.cosid.store.tck.StoreFixture} and one short subclass per
 * contract:
 *
 * <pre>{@code
 * class MyRangeStoreTest extends RangeStoreContract {
 *     protected StoreFixture createFixture() { return new MyFixture(); }
 * }
 * }</pre>
 *
 * Capabilities a backend lacks (a controllable clock, tampering with raw state) make the tests that
 * need them skip visibly, never pass. {@link io.cosid.store.tck.HistoryRecorder} and {@link
 * io.cosid.store.tck.HistoryChecker} check the invariants over any recorded history, for fault
 * tests.
 */
@NullMarked
package io.cosid.store.tck;

import org.jspecify.annotations.NullMarked;
