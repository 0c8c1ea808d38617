package dev.bullet.storm.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.spout.ISpoutOutputCollector;
import org.apache.storm.spout.SpoutOutputCollector;

/**
 * A spout collector for tests that drive a spout directly (no cluster): records every emitted tuple with its
 * stream and message id, so the test can assert on them and ack or fail them by hand. Thread-safe.
 *
 * <pre>{@code
 * RecordingSpoutCollector out = new RecordingSpoutCollector();
 * spout.open(conf, TopologyContexts.forTask("spout", 1), out.collector());
 * spout.nextTuple();
 * for (Emission e : out.drain()) spout.ack(e.messageId());
 * }</pre>
 */
public final class RecordingSpoutCollector implements ISpoutOutputCollector {
    /** One emitted tuple; {@code directTask} is -1 unless emitted with {@code emitDirect}. */
    public record Emission(String stream, List<Object> values, Object messageId, int directTask) {
        /** The value at {@code index} of the tuple, cast to the caller's type. */
        @SuppressWarnings("unchecked")
        public <T> T value(int index) {
            return (T) values.get(index);
        }
    }

    private final List<Emission> emissions = new ArrayList<>();
    private final List<Throwable> errors = new ArrayList<>();

    /** A {@link SpoutOutputCollector} that records into this object; pass it to {@code open}. */
    public SpoutOutputCollector collector() {
        return new SpoutOutputCollector(this);
    }

    @Override
    public synchronized List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
        emissions.add(new Emission(streamId, List.copyOf(tuple), messageId, -1));
        return List.of();
    }

    @Override
    public synchronized void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
        emissions.add(new Emission(streamId, List.copyOf(tuple), messageId, taskId));
    }

    @Override
    public long getPendingCount() {
        return 0;
    }

    @Override
    public void flush() {
    }

    @Override
    public synchronized void reportError(Throwable error) {
        errors.add(error);
    }

    /** Every tuple emitted so far, oldest first. */
    public synchronized List<Emission> emissions() {
        return new ArrayList<>(emissions);
    }

    /** Every tuple emitted so far on {@code stream}, oldest first. */
    public synchronized List<Emission> emitted(String stream) {
        return emissions.stream().filter(e -> e.stream().equals(stream)).toList();
    }

    /** The tuples emitted since the last drain, oldest first, and forgets them. */
    public synchronized List<Emission> drain() {
        List<Emission> out = new ArrayList<>(emissions);
        emissions.clear();
        return out;
    }

    /** Errors reported through {@code reportError}. */
    public synchronized List<Throwable> errors() {
        return new ArrayList<>(errors);
    }
}
