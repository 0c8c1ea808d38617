package dev.bullet.querying;

import dev.bullet.index.Candidates;

import java.util.Arrays;

/**
 * The candidates the index hands out for a batch of records, held until the batch's pass is over and then grouped by
 * record: the index reads the batch path by path, but queries must meet the records in their order (a RAW query
 * keeps the first records it matches, and stops at its size). Within a record, candidates keep the order they came
 * in. Reused from batch to batch. Not thread-safe.
 */
final class CandidateBuffer extends Candidates<FilterQuerier> {
    private int[] at = new int[256];
    private FilterQuerier[] queries = new FilterQuerier[256];
    private boolean[] decided = new boolean[256];
    private int size;
    /** After {@link #group}: the candidates by record, record {@code r}'s from {@code starts[r]} to {@code starts[r + 1]}. */
    private FilterQuerier[] grouped = new FilterQuerier[256];
    private boolean[] groupedDecided = new boolean[256];
    private int[] starts = new int[65];
    /** Where the candidates of queriers fed a batch at a time go ({@link FilterQuerier#batched}). */
    private final BatchedMatches batched;

    CandidateBuffer(BatchedMatches batched) {
        this.batched = batched;
    }

    @Override
    protected void visit(int record, FilterQuerier query) {
        if (query.batched) {
            batched.candidate(record, query);
            return;
        }
        add(record, query, false);
    }

    @Override
    protected void matched(int record, FilterQuerier query) {
        if (query.batched) {
            batched.decided(record, query);
            return;
        }
        add(record, query, true);
    }

    @Override
    protected void visitAll(int word, long records, FilterQuerier query) {
        if (query.batched && word == 0) { // an index batch is one word: its records' bits are the querier's
            batched.candidates(records, query);
            return;
        }
        super.visitAll(word, records, query);
    }

    @Override
    protected void matchedAll(int word, long records, FilterQuerier query) {
        if (query.batched && word == 0) {
            batched.decided(records, query);
            return;
        }
        super.matchedAll(word, records, query);
    }

    private void add(int record, FilterQuerier query, boolean known) {
        if (size == at.length) {
            int n = size * 2;
            at = Arrays.copyOf(at, n);
            queries = Arrays.copyOf(queries, n);
            decided = Arrays.copyOf(decided, n);
        }
        at[size] = record;
        queries[size] = query;
        decided[size] = known;
        size++;
    }

    /** Groups the candidates held by record, for records {@code 0 .. records - 1}; then {@link #clear} forgets them. */
    void group(int records) {
        if (starts.length < records + 2) {
            starts = new int[records + 2];
        }
        Arrays.fill(starts, 0, records + 2, 0);
        for (int i = 0; i < size; i++) {
            starts[at[i] + 2]++;
        }
        for (int r = 2; r < records + 2; r++) {
            starts[r] += starts[r - 1];
        }
        if (grouped.length < size) {
            grouped = new FilterQuerier[queries.length];
            groupedDecided = new boolean[queries.length];
        }
        // starts[r + 1] is where record r's next candidate goes; after the pass it is where record r's end is
        for (int i = 0; i < size; i++) {
            int slot = starts[at[i] + 1]++;
            grouped[slot] = queries[i];
            groupedDecided[slot] = decided[i];
        }
    }

    /** Where record {@code r}'s candidates start (after {@link #group}). */
    int start(int r) {
        return starts[r];
    }

    /** Where record {@code r}'s candidates end. */
    int end(int r) {
        return starts[r + 1];
    }

    FilterQuerier query(int i) {
        return grouped[i];
    }

    /** Whether the index knows candidate {@code i} matches its record (no test needed). */
    boolean decided(int i) {
        return groupedDecided[i];
    }

    /** Forgets the candidates (so their queries can be collected once gone). */
    void clear() {
        Arrays.fill(queries, 0, size, null);
        Arrays.fill(grouped, 0, size, null);
        size = 0;
    }
}
