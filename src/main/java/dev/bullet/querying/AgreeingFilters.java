package dev.bullet.querying;

import dev.bullet.query.Aggregation;
import dev.bullet.query.AggregationType;
import dev.bullet.query.DistributionSpec;
import dev.bullet.query.GroupOperation;
import dev.bullet.query.NamedField;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.aggregations.Aggregator;
import dev.bullet.querying.aggregations.Aggregators;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluators fed a batch at a time whose aggregations are equal and whose filters took every record since their
 * partials were last taken hold the same state, whatever their filters: they ride on one aggregation of their pool,
 * updated once per batch, and each takes its partial ({@code IndexFeature.AGREEING}). Dashboards under filters that
 * most records pass (a negation of a value that never comes, a key every record has) are updated once instead of once
 * per query. A rider whose filter leaves out a record of a batch takes a state of its own: the batches since the last
 * partial are fed to its aggregation again, as they would have been fed to it (the records are held until the next
 * partial for that), and it goes on alone ({@link #leave}). So every evaluator's partial is the one its own
 * aggregation would give, byte for byte. The records held are at most {@link #MAX_HELD} (a Filter task holds their
 * batches until the next tick's partials cover them anyway): past it every rider takes its own state and the pools
 * wait for the next partial. The engine's thread only.
 */
final class AgreeingFilters {
    /** Records held for the riders between partials at most. */
    static final int MAX_HELD = 1 << 15;
    /** {@link #MAX_HELD}, lower in tests. */
    private int maxHeld = MAX_HELD;

    /** The evaluators with one aggregation: its riders take its partial. */
    final class Pool {
        private final Aggregator shared;
        private final List<FilterQuerier> members = new ArrayList<>();
        /** The members riding (or that stopped riding since the last batch: swept out after it). */
        private final List<FilterQuerier> riders = new ArrayList<>();
        /** The shared aggregation's partial, made once for every rider while it does not change; null when not made. */
        private byte[] partial;

        private Pool(Aggregator shared) {
            this.shared = shared;
        }

        /** The partial a rider takes: the shared aggregation's, or null when it holds nothing. */
        byte[] partial() {
            if (partial == null && !shared.isEmpty()) {
                partial = shared.serialize();
            }
            return partial;
        }

        boolean isEmpty() {
            return shared.isEmpty();
        }

        long history() {
            return shared.history();
        }

        /** A rider takes the pool's state on its own: {@link AgreeingFilters#goAlone}. */
        void goAlone(FilterQuerier rider) {
            AgreeingFilters.this.goAlone(rider);
        }

        long heldBytes() {
            return shared.heldBytes();
        }
    }

    private final QuerySettings settings;
    private final Map<PoolKey, Pool> pools = new LinkedHashMap<>();
    /** The pools with riders. */
    private final List<Pool> riding = new ArrayList<>();
    /** The records of the batches the riders rode since the last partial, and where each batch ends among them. */
    private final List<Record> held = new ArrayList<>();
    private int[] batchEnds = new int[64];
    private int batches;
    /** Numbers the index batches: a rider that rode one has its number. */
    private long batch;
    /** The records of the batches since the last partial: a member whose filter took as many took every one. */
    private long recordsSincePartial;

    AgreeingFilters(QuerySettings settings) {
        this.settings = settings;
    }

    /**
     * What of an aggregation a Filter task's state depends on: its kind, the paths of its fields, its operations
     * (GROUP), whether it coerces (DISTRIBUTION) and whether its keys are bullet-core's (BQL); not its size, names,
     * points or threshold, which only the Join reads. Aggregations of one key make the same partials of the same
     * records.
     */
    private record PoolKey(AggregationType type, List<FieldPath> paths, List<GroupOperation> operations, boolean coerce,
                           boolean asStrings) {
        static PoolKey of(Aggregation aggregation) {
            List<FieldPath> paths = new ArrayList<>(aggregation.fields().size());
            for (NamedField field : aggregation.fields()) {
                paths.add(field.path());
            }
            DistributionSpec distribution = aggregation.distribution();
            return new PoolKey(aggregation.type(), paths, aggregation.operations(),
                               distribution != null && distribution.coerce(), aggregation.groupValuesAsStrings());
        }
    }

    /** Puts an evaluator fed a batch at a time in the pool of its aggregation: it rides from the next partial on. */
    void add(FilterQuerier evaluator) {
        if (evaluator.pool == null) {
            Aggregation aggregation = evaluator.query().aggregation();
            Pool pool = pools.computeIfAbsent(PoolKey.of(aggregation),
                                              k -> new Pool(Aggregators.create(aggregation, settings)));
            pool.members.add(evaluator);
            evaluator.pool = pool;
        }
    }

    /** Takes an evaluator that leaves for good out of its pool. */
    void remove(FilterQuerier evaluator) {
        Pool pool = evaluator.pool;
        if (pool == null) {
            return;
        }
        evaluator.pool = null;
        evaluator.riding = false; // swept out of the riders after the batch
        pool.members.remove(evaluator);
        if (pool.members.isEmpty()) {
            pools.remove(PoolKey.of(evaluator.query().aggregation()));
        }
    }

    /** Starts an index batch of {@code records}: returns its number, which a rider that rides it takes. */
    long startBatch(int records) {
        recordsSincePartial += records;
        return ++batch;
    }

    /**
     * A rider whose filter did not take every record of the batch (it rode the ones before) goes alone
     * ({@link #goAlone}), and rides again only after twice as many partials in a row in which its filter took every
     * record (at most {@link #MAX_PROOF}; half as many again, at least {@link #MIN_PROOF}, once it rides to a
     * partial): a filter that leaves a record out now and then would otherwise cost its pool's update of the batches
     * it rode and their replay, which reads the held records again, partial after partial.
     */
    void leave(FilterQuerier rider) {
        goAlone(rider);
        rider.proof = Math.min(MAX_PROOF, 2 * rider.proof);
    }

    /**
     * Partials in a row in which its filter took every record before a member rides: at least (a member new to its pool
     * needs as many), and at most.
     */
    static final int MIN_PROOF = 2;
    static final int MAX_PROOF = 32;

    /**
     * A rider takes the pool's state on its own: its aggregation is fed the batches held, each at once as it came,
     * and it rides no more until the next partial.
     */
    void goAlone(FilterQuerier rider) {
        rider.riding = false;
        for (int b = 0, start = 0; b < batches; b++) {
            int end = batchEnds[b];
            rider.consumeBatch(held, start, allOf(end - start));
            start = end;
        }
    }

    /**
     * Ends the index batch {@code records[from, to)}: a rider that did not ride it (no record, or not every record of
     * it was its) goes alone; each pool with riders left updates its aggregation with the batch, which is held.
     */
    void endBatch(List<? extends Record> records, int from, int to) {
        if (riding.isEmpty()) {
            return;
        }
        boolean anyRode = false;
        for (int p = riding.size() - 1; p >= 0; p--) {
            Pool pool = riding.get(p);
            List<FilterQuerier> riders = pool.riders;
            int kept = 0;
            for (int i = 0, n = riders.size(); i < n; i++) {
                FilterQuerier rider = riders.get(i);
                if (rider.riding && rider.rodeBatch != batch) {
                    leave(rider);
                }
                if (rider.riding) {
                    riders.set(kept++, rider);
                }
            }
            riders.subList(kept, riders.size()).clear();
            if (kept == 0) {
                riding.set(p, riding.get(riding.size() - 1));
                riding.remove(riding.size() - 1);
            } else {
                pool.shared.consumeBatch(records, from, allOf(to - from));
                pool.partial = null;
                anyRode = true;
            }
        }
        if (!anyRode) {
            dropHeld();
            return;
        }
        for (int i = from; i < to; i++) {
            held.add(records.get(i));
        }
        if (batches == batchEnds.length) {
            batchEnds = Arrays.copyOf(batchEnds, batches * 2);
        }
        batchEnds[batches++] = held.size();
        if (held.size() >= maxHeld) {
            for (Pool pool : riding) {
                for (FilterQuerier rider : pool.riders) {
                    if (rider.riding) {
                        goAlone(rider);
                    }
                }
                pool.riders.clear();
            }
            riding.clear();
            dropHeld();
        }
    }

    /**
     * After every evaluator took its partial: each pool starts afresh, and its members fed a batch at a time that are
     * still running (an ended query drains alone), whose own state is as a reset leaves it ({@code isFresh}) and whose
     * filters took every record in the last partials ({@link #leave}: {@link #MIN_PROOF} at first) ride on it, when
     * two or more do.
     */
    void partialsTaken() {
        for (Pool pool : riding) {
            for (FilterQuerier rider : pool.riders) {
                rider.riding = false;
            }
            pool.riders.clear();
        }
        riding.clear();
        dropHeld();
        for (Pool pool : pools.values()) {
            pool.shared.reset();
            pool.partial = null;
            for (FilterQuerier member : pool.members) {
                member.agreed = member.taken == recordsSincePartial ? member.agreed + 1 : 0;
                member.taken = 0;
                if (member.agreed >= member.proof && member.batched && member.readUntil == Long.MAX_VALUE
                    && member.hasFreshAggregation()) {
                    pool.riders.add(member);
                }
            }
            if (pool.riders.size() >= 2) {
                keepCommonHistory(pool);
            }
            if (pool.riders.size() >= 2) {
                for (FilterQuerier rider : pool.riders) {
                    rider.riding = true;
                }
                riding.add(pool);
            } else {
                pool.riders.clear();
            }
        }
        recordsSincePartial = 0;
    }

    /** Sets the records held at most; tests make it small. */
    void maxHeld(int records) {
        maxHeld = records;
    }

    /**
     * Keeps the riders whose aggregations carry the history most of them carry ({@code Aggregator#history}: a GROUP's
     * groups made so far, which number the next ones), and gives the pool's aggregation that history: its partials are
     * then theirs.
     */
    private static void keepCommonHistory(Pool pool) {
        List<FilterQuerier> riders = pool.riders;
        long[] histories = new long[riders.size()];
        for (int i = 0; i < histories.length; i++) {
            histories[i] = riders.get(i).history();
        }
        Arrays.sort(histories);
        long common = histories[0];
        for (int i = 0, best = 0; i < histories.length; ) {
            int j = i;
            while (j < histories.length && histories[j] == histories[i]) {
                j++;
            }
            if (j - i > best) {
                best = j - i;
                common = histories[i];
            }
            i = j;
        }
        long kept = common;
        riders.removeIf(rider -> rider.history() != kept);
        pool.shared.history(kept);
    }

    /** Pools, for tests. */
    int pools() {
        return pools.size();
    }

    /** Evaluators riding now, for tests. */
    int riders() {
        int n = 0;
        for (Pool pool : riding) {
            for (FilterQuerier rider : pool.riders) {
                n += rider.riding ? 1 : 0;
            }
        }
        return n;
    }

    private void dropHeld() {
        held.clear();
        batches = 0;
    }

    private static long allOf(int records) {
        return records == 64 ? -1L : (1L << records) - 1;
    }
}
