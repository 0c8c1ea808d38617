package dev.bullet.query;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a DISTRIBUTION aggregation reports (SPEC §6.4): QUANTILE, PMF or CDF at explicit points, or at
 * {@code numberOfPoints} evenly spaced points (over [0, 1] for quantiles, over [min, max] of the data otherwise).
 * Exactly one of {@code points} and {@code numberOfPoints} is set. Two specs are equal when their points are (a
 * record compares arrays by identity): identical DISTRIBUTION queries then share one evaluation.
 */
public record DistributionSpec(Type type, double[] points, Integer numberOfPoints) {
    public enum Type { QUANTILE, PMF, CDF }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistributionSpec other && type == other.type && Arrays.equals(points, other.points)
            && Objects.equals(numberOfPoints, other.numberOfPoints);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, Arrays.hashCode(points), numberOfPoints);
    }

    @Override
    public String toString() {
        return "DistributionSpec[type=" + type + ", points=" + Arrays.toString(points) + ", numberOfPoints="
            + numberOfPoints + "]";
    }
}
