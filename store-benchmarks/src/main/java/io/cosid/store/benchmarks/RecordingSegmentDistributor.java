package io.cosid.store.benchmarks;

import java.util.ArrayList;
import java.util.List;
import me.ahoo.cosid.segment.IdSegmentDistributor;

/**
 * Passes CosId's calls through and keeps every segment handed out, as the range {@code [maxId -
 * step + 1, maxId + 1)} of IDs it covers, for the duplicate check.
 */
final class RecordingSegmentDistributor implements IdSegmentDistributor {

    private final IdSegmentDistributor actual;
    private final List<long[]> segments = new ArrayList<>();

    RecordingSegmentDistributor(IdSegmentDistributor actual) {
        this.actual = actual;
    }

    @Override
    public String getNamespace() {
        return actual.getNamespace();
    }

    @Override
    public String getName() {
        return actual.getName();
    }

    @Override
    public long getStep() {
        return actual.getStep();
    }

    @Override
    public long nextMaxId(long step) {
        long maxId = actual.nextMaxId(step);
        synchronized (segments) {
            segments.add(new long[] {maxId - step + 1, maxId + 1});
        }
        return maxId;
    }

    /** The segments handed out so far. */
    List<long[]> segments() {
        synchronized (segments) {
            return new ArrayList<>(segments);
        }
    }
}
