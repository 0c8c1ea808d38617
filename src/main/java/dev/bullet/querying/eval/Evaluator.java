package dev.bullet.querying.eval;

import dev.bullet.record.Record;

/**
 * An expression compiled once ({@link Evaluators#compile}) and run per record. It gives a Java value of one of
 * bullet-core's types ({@code String}, {@code Boolean}, {@code Integer}, {@code Long}, {@code Float}, {@code Double}, a
 * {@code List} or a {@code Map}), {@code null}, or {@link Evaluators#FAILED} where bullet-core 1.5.2's evaluator throws.
 * FAILED propagates like bullet-core's exception: an operand that failed fails the whole expression, except where
 * bullet-core stops before evaluating it. Evaluators hold no per-record state and may be shared between threads.
 */
public interface Evaluator {
    Object evaluate(Record record);
}
