package dev.bullet.rest;

import com.google.gson.JsonElement;

/** A running query submitted through this instance, as {@code GET /api/bullet/queries} lists it, with its owner. */
public record RunningQuery(String id, JsonElement query, long startTime, String tenant) {
}
