package dev.bullet.querying;

import dev.bullet.common.BulletError;

/**
 * A partial that ends its query: a Filter found the query cannot go on (its table function would generate more records
 * from one record than a query may take), and the Join ends it with this error and what it merged so far.
 *
 * @param error      what happened
 * @param resolution what to do
 */
public record FilterFailure(String error, String resolution) {
    public BulletError toError() {
        return BulletError.of(error, resolution);
    }

    /** A table function that would generate more than {@code max} records from one record. */
    static FilterFailure tooManyGenerated(int max) {
        return new FilterFailure("The query was ended early: its LATERAL VIEW or EXPLODE would generate more than " + max
                                 + " records from one record; this result has the data merged until then",
                                 "Explode smaller lists or maps, chain fewer explodes, or filter the records in an "
                                 + "outer query");
    }
}
