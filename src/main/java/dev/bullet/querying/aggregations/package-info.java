/**
 * The aggregations of SPEC §6.4, each splittable into partials: RAW, GROUP (exact map or sketch), COUNT DISTINCT
 * (Theta), DISTRIBUTION (quantiles) and TOP K (frequent items), with their sketch metadata.
 */
package dev.bullet.querying.aggregations;
