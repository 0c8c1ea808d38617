package dev.bullet.querying;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The state of one query at its Join task as bytes, so that the task that takes the query over after a restart goes
 * on exactly where the dead one was: the merged aggregation (the aggregator's state as a partial: a fresh aggregator
 * that combines it holds the same), the record batches merged so far ({@link MergedBatches}: a batch sent again is
 * dropped), the window's number and next emit time, the Filter tasks whose last partial arrived, and the rate
 * limit's counters. What is not in it is not needed to go on: the query itself, its start time and reply partition
 * come back from the Filter tasks.
 *
 * <p>Format (version 1): a version byte, the start time (a check: the snapshot is of this query), the window
 * number, next emit time, last partials and their tasks, the batches merged in part, the restart marks of an earlier
 * restore without a snapshot, the rate limit's interval start and count, whether the aggregation is empty, the
 * aggregation's state (length-prefixed), the merged batches.
 */
public final class JoinSnapshot {
    static final byte VERSION = 1;

    /** A querier's state (see {@link JoinQuerier#state()}). */
    record State(long startTime, int windowNumber, long nextEmitTime, int finalPartials, int[] lastFrom,
                 long partlyMerged, long restoredAt, int incompleteUntilWindow, long rateIntervalStart, int rateCount,
                 boolean aggregatorEmpty, byte[] aggregator, MergedBatches merged) {
    }

    private JoinSnapshot() {
    }

    /** The snapshot of {@code querier} as it is now. */
    public static byte[] of(JoinQuerier querier) {
        State s = querier.state();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + s.aggregator().length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeLong(s.startTime());
            out.writeInt(s.windowNumber());
            out.writeLong(s.nextEmitTime());
            out.writeInt(s.finalPartials());
            out.writeInt(s.lastFrom().length);
            for (int task : s.lastFrom()) {
                out.writeInt(task);
            }
            out.writeLong(s.partlyMerged());
            out.writeLong(s.restoredAt());
            out.writeInt(s.incompleteUntilWindow());
            out.writeLong(s.rateIntervalStart());
            out.writeInt(s.rateCount());
            out.writeBoolean(s.aggregatorEmpty());
            out.writeInt(s.aggregator().length);
            out.write(s.aggregator());
            s.merged().writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not with an array
        }
        return bytes.toByteArray();
    }

    /**
     * Takes {@code snapshot} up into {@code querier}, a fresh querier of the same query; a snapshot that is not one
     * (malformed, another version, another query's start time) is an {@link IllegalArgumentException} and leaves the
     * querier unchanged.
     */
    public static void restore(JoinQuerier querier, byte[] snapshot) {
        querier.restore(read(snapshot));
    }

    static State read(byte[] snapshot) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("a Join state snapshot of version " + version + ", not " + VERSION);
            }
            long startTime = in.readLong();
            int windowNumber = in.readInt();
            long nextEmitTime = in.readLong();
            int finalPartials = in.readInt();
            int[] lastFrom = new int[count(in.readInt(), snapshot.length / 4)];
            for (int i = 0; i < lastFrom.length; i++) {
                lastFrom[i] = in.readInt();
            }
            long partlyMerged = in.readLong();
            long restoredAt = in.readLong();
            int incompleteUntilWindow = in.readInt();
            long rateIntervalStart = in.readLong();
            int rateCount = in.readInt();
            boolean empty = in.readBoolean();
            byte[] aggregator = new byte[count(in.readInt(), snapshot.length)];
            in.readFully(aggregator);
            MergedBatches merged = MergedBatches.readFrom(in);
            if (in.available() > 0) {
                throw new IllegalArgumentException("a Join state snapshot with " + in.available() + " bytes too many");
            }
            return new State(startTime, windowNumber, nextEmitTime, finalPartials, lastFrom, partlyMerged, restoredAt,
                             incompleteUntilWindow, rateIntervalStart, rateCount, empty, aggregator, merged);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a Join state snapshot: " + e, e);
        }
    }

    private static int count(int n, int most) {
        if (n < 0 || n > most) {
            throw new IllegalArgumentException("not a Join state snapshot: a count of " + n);
        }
        return n;
    }
}
