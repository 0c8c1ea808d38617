package dev.bullet.storm.testing;

import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A bolt collector for tests that drive a bolt directly (no cluster): records every emitted tuple with its
 * stream, values and anchors, and every ack and fail, so a test asserts on them. Thread-safe.
 *
 * <pre>{@code
 * RecordingOutputCollector out = new RecordingOutputCollector();
 * Bolts.prepare(bolt, out, conf);
 * bolt.execute(Tuples.query("q1", json));
 * assertEquals(1, out.emitted(Streams.PARTIAL).size());
 * }</pre>
 */
public final class RecordingOutputCollector implements IOutputCollector {
    /** One emitted tuple; {@code directTask} is -1 unless emitted with {@code emitDirect}. */
    public record Emission(String stream, List<Object> values, List<Tuple> anchors, int directTask) {
        /** The value at {@code index} of the tuple, cast to the caller's type. */
        @SuppressWarnings("unchecked")
        public <T> T value(int index) {
            return (T) values.get(index);
        }
    }

    private final List<Emission> emissions = new ArrayList<>();
    private final List<Tuple> acked = new ArrayList<>();
    private final List<Tuple> failed = new ArrayList<>();
    private final List<Throwable> errors = new ArrayList<>();

    /** An {@link OutputCollector} that records into this object; pass it to {@code prepare}. */
    public OutputCollector collector() {
        return new OutputCollector(this);
    }

    @Override
    public synchronized List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        emissions.add(new Emission(streamId, copy(tuple), anchors == null ? List.of() : List.copyOf(anchors), -1));
        return List.of();
    }

    @Override
    public synchronized void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        emissions.add(new Emission(streamId, copy(tuple), anchors == null ? List.of() : List.copyOf(anchors), taskId));
    }

    private static List<Object> copy(List<Object> values) {
        return Collections.unmodifiableList(new ArrayList<>(values)); // values may hold nulls
    }

    @Override
    public synchronized void ack(Tuple input) {
        acked.add(input);
    }

    @Override
    public synchronized void fail(Tuple input) {
        failed.add(input);
    }

    @Override
    public void resetTimeout(Tuple input) {
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

    /** The tuples emitted on {@code stream} so far, oldest first. */
    public synchronized List<Emission> emitted(String stream) {
        return emissions.stream().filter(e -> e.stream().equals(stream)).collect(Collectors.toList());
    }

    /** The tuples emitted since the last drain, oldest first, and forgets them (acks and fails are kept). */
    public synchronized List<Emission> drain() {
        List<Emission> out = new ArrayList<>(emissions);
        emissions.clear();
        return out;
    }

    /** Forgets everything recorded so far (emissions, acks, fails, errors). */
    public synchronized void reset() {
        emissions.clear();
        acked.clear();
        failed.clear();
        errors.clear();
    }

    public synchronized List<Tuple> acked() {
        return new ArrayList<>(acked);
    }

    public synchronized List<Tuple> failed() {
        return new ArrayList<>(failed);
    }

    /** Errors reported through {@code reportError}. */
    public synchronized List<Throwable> errors() {
        return new ArrayList<>(errors);
    }
}
