package dev.bullet.querying.aggregations;

import dev.bullet.query.Aggregation;
import dev.bullet.query.QuerySettings;

/** Creates the {@link Aggregator} for a validated aggregation. */
public final class Aggregators {
    private Aggregators() {
    }

    public static Aggregator create(Aggregation aggregation, QuerySettings settings) {
        switch (aggregation.type()) {
            case GROUP:
                return aggregation.fields().isEmpty() ? new GroupAllAggregator(aggregation)
                                                      : new GroupAggregator(aggregation, settings);
            case COUNT_DISTINCT:
                return new CountDistinctAggregator(aggregation, settings);
            case DISTRIBUTION:
                return new DistributionAggregator(aggregation, settings);
            case TOP_K:
                return new TopKAggregator(aggregation, settings);
            default:
                return new RawAggregator(aggregation.size());
        }
    }
}
