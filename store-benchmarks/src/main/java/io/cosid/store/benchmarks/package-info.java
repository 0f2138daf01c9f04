/**
 * The benchmarks: JMH benchmarks and the side-by-side harness ({@code SideBySide}) that measures
 * the stores against references in the same run. Not API.
 */
@NullMarked
package io.cosid.store.benchmarks;

import org.jspecify.annotations.NullMarked;
