/**
 * Stage 4: how a query runs. The Filter side ({@link dev.bullet.querying.FilterEngine}, one
 * {@link dev.bullet.querying.FilterQuerier} per query) evaluates records and builds partials; the Join side
 * ({@link dev.bullet.querying.JoinEngine}, one {@link dev.bullet.querying.JoinQuerier} per query) merges partials,
 * closes windows, post-aggregates and emits results. Plain classes, no Storm: the bolts call them.
 */
package dev.bullet.querying;
