package dev.bullet.querying.aggregations;

import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.testing.Queries;

import java.util.List;

/** Builds aggregators from an aggregation's JSON, as a query would, for the aggregator tests. */
final class Aggregations {
    private Aggregations() {
    }

    static Aggregator create(String aggregationJson) {
        return create(aggregationJson, QuerySettings.defaults());
    }

    static Aggregator create(String aggregationJson, QuerySettings settings) {
        return Aggregators.create(Queries.parse("{\"aggregation\": " + aggregationJson + "}", settings).aggregation(), settings);
    }

    static Aggregator consumeAll(Aggregator aggregator, List<Record> records) {
        records.forEach(aggregator::consume);
        return aggregator;
    }

    /** A fresh aggregator of the same kind that combined the serialized state of {@code source}. */
    static Aggregator roundTrip(String aggregationJson, QuerySettings settings, Aggregator source) {
        Aggregator target = create(aggregationJson, settings);
        target.combine(source.serialize());
        return target;
    }
}
