/**
 * The {@code cosid-store} command-line tool: inspect, advance, migrate and purge stores, and the
 * demo that runs a fleet of ID generators on an embedded default. Not API: the commands and their
 * output are the interface, not these classes.
 */
@NullMarked
package io.cosid.store.cli;

import org.jspecify.annotations.NullMarked;
