package dev.bullet.querying;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The state of one query at its Join task as bytes, so that the task that takes the query over after a restart goes
 * on exactly where the dead one was: the merged aggregation (the aggregator's state as a partial: a fresh aggregator
 * that combines it holds the same), the record batches merged so far ({@link MergedBatches}: a batch sent again is
 * dropped), the window's number and next emit time, the Filter tasks whose last partial arrived, and the rate
 * limit's counters. What is not in it is not needed to go on: the query itself, its start time and reply partition
 * come back from the Filter tasks.
 *
 * <p>A query's state is kept as a <em>base</em> and the <em>deltas</em> written after it: a delta carries the
 * counters and merged batches whole (a few bytes) and, of the aggregation, only the RAW rows appended since the
 * snapshot before it, so a RAW query's rows are written once, not at every snapshot. A delta names its base (a
 * random id) and its place after it (1, 2, ...); {@link #assemble} keeps the deltas of the base in an unbroken
 * sequence, so a stale delta of an earlier base, or one after a lost one, is never taken up.
 *
 * <p>Formats: a version byte, then for version 1 (a whole state, {@link #of}) the start time (a check: the snapshot
 * is of this query), the window number, next emit time, last partials and their tasks, the batches merged in part,
 * the restart marks of an earlier restore without a snapshot, the rate limit's interval start and count, whether the
 * aggregation is empty, the aggregation's state (length-prefixed), the merged batches. Version 2 (a base): the base
 * id, then version 1's fields. Version 3 (a delta): the base id, its place, then version 1's fields with the rows
 * appended (a RAW partial; empty: none) as the aggregation's state. Version 4 (a chain, as {@link #assemble} gives
 * it): a count, then a base and its deltas, each length-prefixed.
 */
public final class JoinSnapshot {
    static final byte VERSION = 1;
    static final byte BASE = 2;
    static final byte DELTA = 3;
    static final byte CHAIN = 4;

    /** A querier's state (see {@link JoinQuerier#state()}). */
    record State(long startTime, int windowNumber, long nextEmitTime, int finalPartials, int[] lastFrom,
                 long partlyMerged, long restoredAt, int incompleteUntilWindow, long rateIntervalStart, int rateCount,
                 boolean aggregatorEmpty, byte[] aggregator, MergedBatches merged) {
    }

    private JoinSnapshot() {
    }

    /** The snapshot of {@code querier} as it is now, whole (version 1). */
    public static byte[] of(JoinQuerier querier) {
        return write(VERSION, 0, 0, querier.state());
    }

    /** The whole state of {@code querier} as the base {@code baseId} of later deltas. */
    static byte[] base(JoinQuerier querier, long baseId) {
        return write(BASE, baseId, 0, querier.state());
    }

    /**
     * The delta number {@code seq} after base {@code baseId}: the querier's counters and merged batches, and the RAW
     * rows from the {@code fromRow}-th on, or, for any other aggregation, the partials merged since the snapshot before
     * ({@link JoinQuerier#keepPartials}; each length-prefixed).
     */
    static byte[] delta(JoinQuerier querier, long baseId, int seq, int fromRow) {
        State s = querier.state(false);
        byte[] rows = querier.isRaw() ? querier.rowsFrom(fromRow) : frames(querier.partialsSince());
        return write(DELTA, baseId, seq, new State(s.startTime(), s.windowNumber(), s.nextEmitTime(), s.finalPartials(),
                                                   s.lastFrom(), s.partlyMerged(), s.restoredAt(),
                                                   s.incompleteUntilWindow(), s.rateIntervalStart(), s.rateCount(),
                                                   rows.length == 0, rows, s.merged()));
    }

    private static byte[] frames(List<byte[]> partials) {
        if (partials.isEmpty()) {
            return new byte[0];
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeFrames(out, partials);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not with an array
        }
        return bytes.toByteArray();
    }

    /** Each part as its length (an int) and its bytes. */
    private static void writeFrames(DataOutputStream out, List<byte[]> parts) throws IOException {
        for (byte[] part : parts) {
            out.writeInt(part.length);
            out.write(part);
        }
    }

    private static List<byte[]> unframe(byte[] frames) {
        List<byte[]> out = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(frames))) {
            while (in.available() > 0) {
                byte[] p = new byte[count(in.readInt(), frames.length)];
                in.readFully(p);
                out.add(p);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a Join state delta: " + e, e);
        }
        return out;
    }

    private static byte[] write(byte version, long baseId, int seq, State s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(80 + s.aggregator().length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(version);
            if (version != VERSION) {
                out.writeLong(baseId);
            }
            if (version == DELTA) {
                out.writeInt(seq);
            }
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
     * The base id of a base or delta (versions 2 and 3), or 0 for anything else.
     */
    static long baseId(byte[] snapshot) {
        if (snapshot.length < 9 || (snapshot[0] != BASE && snapshot[0] != DELTA)) {
            return 0;
        }
        return ByteBuffer.wrap(snapshot, 1, 8).getLong();
    }

    /**
     * What a restarted task takes a query up from: {@code base} (a base, or a whole state of version 1) and the deltas
     * of that base in {@code deltas} (by their place), from the first on as long as none is missing; the base alone
     * when no delta follows it. Deltas of another base (written before a later base replaced it) are left out.
     */
    public static byte[] assemble(byte[] base, Map<Integer, byte[]> deltas) {
        long id = baseId(base);
        List<byte[]> chain = new ArrayList<>();
        chain.add(base);
        for (int seq = 1; id != 0; seq++) {
            byte[] d = deltas.get(seq);
            if (d == null || d.length < 13 || d[0] != DELTA || baseId(d) != id
                || ByteBuffer.wrap(d, 9, 4).getInt() != seq) {
                break;
            }
            chain.add(d);
        }
        if (chain.size() == 1) {
            return base;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(CHAIN);
            out.writeInt(chain.size());
            writeFrames(out, chain);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not with an array
        }
        return bytes.toByteArray();
    }

    /**
     * Takes {@code snapshot} (a whole state, a base, or a chain from {@link #assemble}) up into {@code querier}, a
     * fresh querier of the same query; a snapshot that is not one (malformed, another version, another query's start
     * time) is an {@link IllegalArgumentException} and leaves the querier unchanged.
     */
    public static void restore(JoinQuerier querier, byte[] snapshot) {
        List<State> parts = new ArrayList<>();
        if (snapshot.length > 0 && snapshot[0] == CHAIN) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot))) {
                in.readByte();
                int n = count(in.readInt(), snapshot.length / 4);
                for (int i = 0; i < n; i++) {
                    byte[] part = new byte[count(in.readInt(), snapshot.length)];
                    in.readFully(part);
                    State s = read(part, i == 0 ? -1 : DELTA);
                    if (s.startTime() != querier.startTime()) {
                        throw new IllegalArgumentException("the snapshot is of a query started at " + s.startTime()
                                                           + ", this one started at " + querier.startTime());
                    }
                    parts.add(s);
                }
                if (in.available() > 0) {
                    throw new IllegalArgumentException("a Join state chain with " + in.available() + " bytes too many");
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("not a Join state snapshot: " + e, e);
            }
        } else {
            parts.add(read(snapshot, -1));
        }
        List<List<byte[]>> partials = new ArrayList<>();
        for (State delta : parts.subList(1, parts.size())) {
            partials.add(delta.aggregatorEmpty() ? List.of()
                    : querier.isRaw() ? List.of(delta.aggregator()) : unframe(delta.aggregator()));
        }
        querier.restore(parts.get(0));
        for (int i = 1; i < parts.size(); i++) {
            querier.restoreDelta(parts.get(i), partials.get(i - 1));
        }
    }

    static State read(byte[] snapshot) {
        return read(snapshot, -1);
    }

    /** Reads a whole state or a base ({@code expected} -1), or a delta ({@link #DELTA}). */
    private static State read(byte[] snapshot, int expected) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            byte version = in.readByte();
            boolean whole = version == VERSION || version == BASE;
            if (expected == DELTA ? version != DELTA : !whole) {
                throw new IllegalArgumentException("a Join state snapshot of version " + version + " where "
                                                   + (expected == DELTA ? "a delta" : "a whole state") + " was expected");
            }
            if (version != VERSION) {
                in.readLong(); // the base id: checked by assemble
            }
            if (version == DELTA) {
                in.readInt();
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
