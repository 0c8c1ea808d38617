package dev.bullet.querying;

import dev.bullet.record.Record;

/** A compiled filter (SPEC §6.2). Evaluating one allocates nothing and never throws for any record. */
@FunctionalInterface
public interface RecordPredicate {
    boolean test(Record record);

    RecordPredicate ALWAYS = record -> true;
}
