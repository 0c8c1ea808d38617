package dev.bullet.query;

import java.util.List;

/**
 * The validated aggregation of a query (SPEC §6.4). {@code size} is already defaulted and clamped.
 * {@code fields} are group-by / sketch fields; {@code operations} only for GROUP; {@code distribution} only for
 * DISTRIBUTION; {@code threshold} only for TOP K; {@code newName} for COUNT DISTINCT and TOP K.
 * {@code groupValuesAsStrings} only for GROUP, TOP K and COUNT DISTINCT (JSON {@code "attributes":
 * {"groupValuesAsStrings": true}}, what BQL is translated with): each row's group values are the strings bullet-core
 * 1.5.2 makes of them ({@code 5} is {@code "5"}, a missing value {@code "null"}), so HAVING, ORDER BY and an outer
 * query see them as bullet-core's do; COUNT DISTINCT counts those strings, as bullet-core's sketch does ({@code 7} and
 * {@code "7"} are one, an empty string none).
 */
public record Aggregation(AggregationType type, int size, List<NamedField> fields, List<GroupOperation> operations,
                          String newName, DistributionSpec distribution, Long threshold, boolean groupValuesAsStrings) {
    public Aggregation {
        fields = List.copyOf(fields);
        operations = List.copyOf(operations);
    }

    public Aggregation(AggregationType type, int size, List<NamedField> fields, List<GroupOperation> operations,
                       String newName, DistributionSpec distribution, Long threshold) {
        this(type, size, fields, operations, newName, distribution, threshold, false);
    }

    public static Aggregation raw(int size) {
        return new Aggregation(AggregationType.RAW, size, List.of(), List.of(), null, null, null);
    }
}
