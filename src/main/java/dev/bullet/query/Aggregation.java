package dev.bullet.query;

import java.util.List;

/**
 * The validated aggregation of a query (SPEC §6.4). {@code size} is already defaulted and clamped.
 * {@code fields} are group-by / sketch fields; {@code operations} only for GROUP; {@code distribution} only for
 * DISTRIBUTION; {@code threshold} only for TOP K; {@code newName} for COUNT DISTINCT and TOP K.
 */
public record Aggregation(AggregationType type, int size, List<NamedField> fields, List<GroupOperation> operations,
                          String newName, DistributionSpec distribution, Long threshold) {
    public Aggregation {
        fields = List.copyOf(fields);
        operations = List.copyOf(operations);
    }

    public static Aggregation raw(int size) {
        return new Aggregation(AggregationType.RAW, size, List.of(), List.of(), null, null, null);
    }
}
