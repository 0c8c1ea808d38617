package dev.bullet.querying.aggregations;

import dev.bullet.record.Record;

import java.util.Arrays;
import java.util.List;

/**
 * The metrics of the groups a GROUP keeps apart from its sketch between partials ({@link KeptKeys}), flat, by their
 * keys' dictionary ids: a group is a run of longs in one array — its count, then {@link GroupMetrics}' own layout of
 * each operation's metrics — folded by {@link GroupMetrics}' own functions. A group's first touch in a batch, which
 * misses the cache when hundreds of queries hold hundreds of groups each, then reads one line or two, where a
 * {@link GroupMetrics} is two objects. A group leaves as a {@link GroupMetrics} holding the same values ({@link #take}).
 */
final class KeptGroups {
    private final GroupSpec spec;
    /** Longs a group takes: its count, then {@link GroupMetrics#WIDTH} per operation. */
    private final int stride;
    private long[] state = new long[0];
    /** By id: the values of the group's fields, read from its first record. */
    private Object[] values = new Object[0];

    KeptGroups(GroupSpec spec) {
        this.spec = spec;
        this.stride = 1 + GroupMetrics.WIDTH * spec.operations().size();
    }

    /** Whether the group of {@code id} holds records (else it is new). */
    boolean has(int id) {
        int at = id * stride;
        return at < state.length && state[at] != 0;
    }

    /** The group's count, 0 for none: read ahead of {@link #fold}, so that the reads of several groups overlap. */
    long touch(int id) {
        int at = id * stride;
        return at < state.length ? state[at] : 0;
    }

    /**
     * Folds the records of {@code batch} at {@code from + i}, for each bit {@code i} of {@code positions}, into the group
     * of {@code id}, in batch order: what {@link GroupMetrics#update(Record)} of each gives.
     */
    void fold(int id, List<? extends Record> batch, int from, long positions) {
        int at = id * stride;
        if (at >= state.length) {
            int length = KeptKeys.lengthFor(id, values.length);
            state = Arrays.copyOf(state, length * stride);
            values = Arrays.copyOf(values, length);
        }
        long[] s = state;
        int[] reading = spec.reading;
        for (long m = positions; m != 0; m &= m - 1) {
            Record record = batch.get(from + Long.numberOfTrailingZeros(m));
            if (s[at] == 0) {
                values[id] = spec.groupValues(record);
            }
            s[at]++;
            for (int j = 0; j < reading.length; j++) {
                GroupMetrics.fold(s, at + 1 + GroupMetrics.WIDTH * reading[j], spec.readType[j], spec.readCoerced[j],
                                  record.get(spec.readField[j]));
            }
        }
    }

    /** The group of {@code id} as a {@link GroupMetrics} (a new one), which it leaves: the id holds no group after. */
    @SuppressWarnings("unchecked")
    GroupMetrics take(int id) {
        int at = id * stride;
        GroupMetrics group = GroupMetrics.ofKept(spec, (List<Object>) values[id], state[at], state, at + 1);
        clear(id);
        return group;
    }

    /** Drops the group of {@code id}. */
    void clear(int id) {
        int at = id * stride;
        Arrays.fill(state, at, at + stride, 0L);
        values[id] = null;
    }

    /** The bytes its arrays take (the groups' values are counted with their keys by the caller). */
    long heldBytes() {
        return (long) state.length * Long.BYTES + (long) values.length * Integer.BYTES;
    }
}
