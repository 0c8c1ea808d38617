package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.DistributionSpec;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantiles.DoublesSketch;
import org.apache.datasketches.quantiles.DoublesUnion;
import org.apache.datasketches.quantiles.UpdateDoublesSketch;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DISTRIBUTION of one numeric field: a DataSketches quantiles sketch (exact while it holds every value).
 * Ranks are exclusive ({@code rank(x)} = fraction of values &lt; x), matching the {@code [a to b)} range labels:
 * QUANTILE rows {@code {Quantile, Value}}, PMF and CDF rows {@code {Range, Count, Probability}}.
 * Non-numeric, missing and null values are skipped. An empty sketch has no rows.
 */
final class DistributionAggregator implements Aggregator {
    static final String NEGATIVE_INFINITY = "(-\u221e";
    static final String POSITIVE_INFINITY = "+\u221e)";
    private static final QuantileSearchCriteria CRITERIA = QuantileSearchCriteria.EXCLUSIVE;

    private final FieldPath field;
    private final DistributionSpec spec;
    private final int k;
    private final int rounding;
    private UpdateDoublesSketch sketch;
    private DoublesUnion union;
    private boolean empty;
    /** The items merged into the union (for {@link #heldBytes()}: a quantiles sketch's size grows with log of them). */
    private long unionItems;

    DistributionAggregator(Aggregation aggregation, QuerySettings settings) {
        this.field = aggregation.fields().get(0).path();
        this.spec = aggregation.distribution();
        this.k = settings.distributionEntries();
        this.rounding = settings.generatedPointsRounding();
        reset();
    }

    @Override
    public void consume(Record record) {
        Object v = record.get(field);
        Object n = spec.coerce() ? GroupMetrics.coerced(v) : v;
        if (n instanceof Number) {
            double d = ((Number) n).doubleValue();
            if (!Double.isNaN(d)) {
                sketch.update(d);
                empty = false;
            }
        }
    }

    @Override
    public void combine(byte[] partial) {
        DoublesSketch other = DoublesSketch.heapify(Memory.wrap(partial));
        union.union(other);
        unionItems += other.getN();
        empty = false;
    }

    private DoublesSketch merged() {
        DoublesUnion u = DoublesUnion.builder().setMaxK(k).build();
        u.union(union.getResult());
        u.union(sketch);
        return u.getResult();
    }

    @Override
    public byte[] serialize() {
        return merged().toByteArray(true);
    }

    @Override
    public List<Map<String, Object>> records() {
        DoublesSketch result = merged();
        List<Map<String, Object>> rows = new ArrayList<>();
        if (result.isEmpty()) {
            return rows;
        }
        double[] points = points(result);
        if (points == null) {
            return rows;
        }
        if (spec.type() == DistributionSpec.Type.QUANTILE) {
            double[] values = result.getQuantiles(points, CRITERIA);
            for (int i = 0; i < points.length; i++) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("Quantile", points[i]);
                row.put("Value", values[i]);
                rows.add(row);
            }
            return rows;
        }
        boolean cdf = spec.type() == DistributionSpec.Type.CDF;
        // Every retained item carries a whole weight, so rank * n is a whole count: rounding it removes the
        // floating-point noise of the sketch's normalised ranks (0.6 - 0.2 = 0.39999999999999997), and the
        // probabilities are then count / n, exact below the sketch's capacity.
        double[] ranks = result.getCDF(points, CRITERIA);
        long n = result.getN();
        long previous = 0;
        for (int i = 0; i < ranks.length; i++) {
            long cumulative = Math.round(ranks[i] * n);
            long count = cdf ? cumulative : cumulative - previous;
            previous = cumulative;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("Range", range(points, i, cdf));
            row.put("Count", (double) count);
            row.put("Probability", (double) count / n);
            rows.add(row);
        }
        return rows;
    }

    /**
     * The split points: the query's own, or {@code numberOfPoints} spread evenly over [0, 1] for quantiles and over the
     * data's range otherwise. Null when the points would be spread by a step that is not finite (an infinite value at
     * one end, or a range wider than a double holds): bullet-core's points are then NaN or repeated infinities, which
     * its sketch refuses, and its answer has no rows. One point (one value seen, or one asked for) may be infinite.
     */
    private double[] points(DoublesSketch result) {
        if (spec.points() != null) {
            return spec.points();
        }
        int count = spec.numberOfPoints();
        boolean quantile = spec.type() == DistributionSpec.Type.QUANTILE;
        double start = quantile ? 0.0 : result.getMinItem();
        double end = quantile ? 1.0 : result.getMaxItem();
        if (count == 1 || start >= end) {
            return new double[] {round(start)};
        }
        double increment = (end - start) / (count - 1);
        if (!Double.isFinite(increment)) {
            return null;
        }
        double[] points = new double[count];
        for (int i = 0; i < count; i++) {
            points[i] = round(i == count - 1 ? end : start + i * increment);
        }
        return Arrays.stream(points).distinct().toArray();
    }

    /** The value rounded to the setting's places; an infinite one as it is (one infinite point is a valid one). */
    private double round(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).setScale(rounding, RoundingMode.HALF_UP).doubleValue()
                                      : value;
    }

    private static String range(double[] points, int i, boolean cdf) {
        if (cdf) {
            return NEGATIVE_INFINITY + " to " + (i < points.length ? points[i] + ")" : POSITIVE_INFINITY);
        }
        String start = i == 0 ? NEGATIVE_INFINITY : "[" + points[i - 1];
        String end = i < points.length ? points[i] + ")" : POSITIVE_INFINITY;
        return start + " to " + end;
    }

    @Override
    public Map<String, Object> sketchMetadata() {
        DoublesSketch result = merged();
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("was_estimated", result.isEstimationMode());
        meta.put("family", "QUANTILES");
        meta.put("size", result.getCurrentCompactSerializedSizeBytes());
        if (!result.isEmpty()) {
            meta.put("minimum_value", result.getMinItem());
            meta.put("maximum_value", result.getMaxItem());
        }
        meta.put("items_seen", result.getN());
        meta.put("normalized_rank_error", result.getNormalizedRankError(spec.type() != DistributionSpec.Type.QUANTILE));
        return meta;
    }

    @Override
    public void reset() {
        sketch = DoublesSketch.builder().setK(k).build();
        union = DoublesUnion.builder().setMaxK(k).build();
        unionItems = 0;
        empty = true;
    }

    /** The quantiles sketch and union: at most their size for K at the items they saw, a few KB per query. */
    @Override
    public long heldBytes() {
        return HeapEstimate.FIXED + sketch.getCurrentUpdatableSerializedSizeBytes()
               + DoublesSketch.getUpdatableStorageBytes(k, unionItems);
    }

    @Override
    public boolean isEmpty() {
        return empty;
    }
}
