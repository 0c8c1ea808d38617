package dev.bullet.query;

/**
 * What a DISTRIBUTION aggregation reports (SPEC §6.4): QUANTILE, PMF or CDF at explicit points, or at
 * {@code numberOfPoints} evenly spaced points (over [0, 1] for quantiles, over [min, max] of the data otherwise).
 * Exactly one of {@code points} and {@code numberOfPoints} is set.
 */
public record DistributionSpec(Type type, double[] points, Integer numberOfPoints) {
    public enum Type { QUANTILE, PMF, CDF }
}
