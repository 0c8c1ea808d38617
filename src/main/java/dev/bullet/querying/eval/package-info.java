/**
 * Stage 4, beside {@code querying}: expressions ({@code query.expr}) compiled once into small {@link
 * dev.bullet.querying.eval.Evaluator} trees and run per record with bullet-core 1.5.2's semantics (its types, implicit
 * conversions, three-valued logic, casts and functions). Where bullet-core's evaluator throws, an evaluation gives
 * {@link dev.bullet.querying.eval.Evaluators#FAILED}, which propagates like the exception and which the consumers read
 * as bullet-core's do (a filter does not match, a projected field is left out). Uses {@code dev.bullet}, {@code
 * common}, {@code record} and {@code query.expr}; not yet wired into the engine.
 */
package dev.bullet.querying.eval;
