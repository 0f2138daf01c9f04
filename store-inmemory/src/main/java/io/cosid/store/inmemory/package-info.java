/**
 * The in-memory backend: the contract ({@code docs/contract.md}) as the plainest code that
 * implements it, for users' unit tests and as the model every other backend is compared against.
 *
 * <p>{@link io.cosid.store.inmemory.InMemoryStores} is the entry point. An {@link
 * io.cosid.store.inmemory.InMemoryBackend} plays the part of the server: several stores opened on
 * one backend behave like several processes sharing it, and its {@link java.time.InstantSource} is
 * the store's clock, which tests may step forward and backward.
 */
@NullMarked
package io.cosid.store.inmemory;

import org.jspecify.annotations.NullMarked;
