package dev.bullet.rest;

import dev.bullet.common.BulletError;
import dev.bullet.record.JsonCodec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every error the REST service answers, in the result shape of SPEC §7.2:
 * {@code {"records": [], "meta": {"errors": [{"error": "...", "resolutions": ["..."]}]}}}, with the query id in
 * {@code meta.query_id} when there is one.
 */
final class ErrorResults {
    private ErrorResults() {
    }

    static String of(List<BulletError> errors) {
        return of(null, errors);
    }

    static String of(String error, String... resolutions) {
        return of(null, List.of(BulletError.of(error, resolutions)));
    }

    static String forQuery(String queryId, String error, String... resolutions) {
        return of(queryId, List.of(BulletError.of(error, resolutions)));
    }

    static String of(String queryId, List<BulletError> errors) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (queryId != null) {
            meta.put("query_id", queryId);
        }
        meta.put("errors", errors);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("records", List.of());
        result.put("meta", meta);
        return JsonCodec.toResultJson(result);
    }
}
