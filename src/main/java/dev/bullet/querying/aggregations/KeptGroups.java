package dev.bullet.querying.aggregations;

import dev.bullet.record.Record;

import java.util.Arrays;
import java.util.List;

/**
 * The metrics of the groups a GROUP keeps apart from its sketch between partials ({@link KeptKeys}), flat: a group is
 * a run of longs in one array — its count, then {@link GroupMetrics}' own layout of each operation's metrics — folded
 * by {@link GroupMetrics}' own functions. A group's first touch in a batch, which misses the cache when hundreds of
 * queries hold hundreds of groups each, then reads one line or two, where a {@link GroupMetrics} is two objects. A
 * group leaves as a {@link GroupMetrics} holding the same values ({@link #take}).
 *
 * <p>Groups are found by their keys' dictionary ids through an array of small numbers, given in the order the groups
 * come: the runs of longs take room for the groups held, not for the highest id met (a query of a few groups over
 * fields whose dictionary other queries filled meets ids in the thousands).
 */
final class KeptGroups {
    private final GroupSpec spec;
    /** Longs a group takes: its count, then {@link GroupMetrics#WIDTH} per operation. */
    private final int stride;
    /** By dictionary id: the group's number + 1, 0 for none. */
    private int[] numbers = new int[0];
    /** By number, {@link #stride} longs a group. */
    private long[] state = new long[0];
    /** By number: the values of the group's fields, read from its first record. */
    private Object[] values = new Object[0];
    /** Numbers given; and how many of them still hold a group (all are given again once none does). */
    private int given;
    private int held;

    KeptGroups(GroupSpec spec) {
        this.spec = spec;
        this.stride = 1 + GroupMetrics.WIDTH * spec.operations().size();
    }

    /** Whether a group of {@code id} is held. */
    boolean has(int id) {
        return id < numbers.length && numbers[id] != 0;
    }

    /** The group's count, 0 for none: read ahead of {@link #fold}, so that the reads of several groups overlap. */
    long touch(int id) {
        int number = id < numbers.length ? numbers[id] : 0;
        return number == 0 ? 0 : state[(number - 1) * stride];
    }

    /**
     * Folds the records of {@code batch} at {@code from + i}, for each bit {@code i} of {@code positions}, into the group
     * of {@code id} (new if none is held), in batch order: what {@link GroupMetrics#update(Record)} of each gives.
     */
    void fold(int id, List<? extends Record> batch, int from, long positions) {
        int number = has(id) ? numbers[id] - 1 : add(id);
        int at = number * stride;
        long[] s = state;
        int[] reading = spec.reading;
        for (long m = positions; m != 0; m &= m - 1) {
            Record record = batch.get(from + Long.numberOfTrailingZeros(m));
            if (s[at] == 0) {
                values[number] = spec.groupValues(record);
            }
            s[at]++;
            for (int j = 0; j < reading.length; j++) {
                GroupMetrics.fold(s, at + 1 + GroupMetrics.WIDTH * reading[j], spec.readType[j], spec.readCoerced[j],
                                  record.get(spec.readField[j]));
            }
        }
    }

    private int add(int id) {
        if (id >= numbers.length) {
            numbers = Arrays.copyOf(numbers, KeptKeys.lengthFor(id, numbers.length));
        }
        int number = given++;
        if (number == values.length) {
            int length = Math.max(16, 2 * number);
            values = Arrays.copyOf(values, length);
            state = Arrays.copyOf(state, length * stride);
        }
        numbers[id] = number + 1;
        held++;
        return number;
    }

    /** The group of {@code id} as a {@link GroupMetrics} (a new one), which it leaves: the id holds no group after. */
    @SuppressWarnings("unchecked")
    GroupMetrics take(int id) {
        int number = numbers[id] - 1;
        int at = number * stride;
        GroupMetrics group = GroupMetrics.ofKept(spec, (List<Object>) values[number], state[at], state, at + 1);
        clear(id);
        return group;
    }

    /** Drops the group of {@code id}, if one is held. */
    void clear(int id) {
        if (!has(id)) {
            return;
        }
        int number = numbers[id] - 1;
        Arrays.fill(state, number * stride, (number + 1) * stride, 0L);
        values[number] = null;
        numbers[id] = 0;
        if (--held == 0) {
            given = 0;
        }
    }

    /** Lets go of its arrays (it holds no group). */
    void release() {
        numbers = new int[0];
        state = new long[0];
        values = new Object[0];
        given = 0;
        held = 0;
    }

    /** The bytes its arrays take (the groups' values are counted with their keys by the caller). */
    long heldBytes() {
        return (long) numbers.length * Integer.BYTES + (long) state.length * Long.BYTES
               + (long) values.length * Integer.BYTES;
    }
}
