/**
 * The REST service (SPEC §7.2) on Undertow: submits queries to the PubSub, streams results back (http-query,
 * sse-query), validates, lists and kills queries, and answers health probes. Depends on the PubSub and the query
 * model, never on the topology.
 */
package dev.bullet.rest;
