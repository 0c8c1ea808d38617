package dev.bullet.query;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a DISTRIBUTION aggregation reports (SPEC §6.4): QUANTILE, PMF or CDF at explicit points, or at
 * {@code numberOfPoints} evenly spaced points (over [0, 1] for quantiles, over [min, max] of the data otherwise).
 * Exactly one of {@code points} and {@code numberOfPoints} is set. Two specs are equal when their points are (a
 * record compares arrays by identity): identical DISTRIBUTION queries then share one evaluation. {@code coerce}: the
 * field's values are read as bullet-core 1.5.2 reads them (booleans 1/0, numeric strings parsed; JSON
 * {@code "coerce": true}, what BQL is translated with), else numbers only (the legacy JSON query's meaning).
 */
public record DistributionSpec(Type type, double[] points, Integer numberOfPoints, boolean coerce) {
    public enum Type { QUANTILE, PMF, CDF }

    /** A spec that reads numbers only. */
    public DistributionSpec(Type type, double[] points, Integer numberOfPoints) {
        this(type, points, numberOfPoints, false);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistributionSpec other && type == other.type && Arrays.equals(points, other.points)
            && Objects.equals(numberOfPoints, other.numberOfPoints) && coerce == other.coerce;
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, Arrays.hashCode(points), numberOfPoints, coerce);
    }

    @Override
    public String toString() {
        return "DistributionSpec[type=" + type + ", points=" + Arrays.toString(points) + ", numberOfPoints="
            + numberOfPoints + ", coerce=" + coerce + "]";
    }
}
