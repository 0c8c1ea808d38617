package dev.bullet.query;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.Locale;
import java.util.Set;

import static dev.bullet.query.JsonShapes.*;

/**
 * The window (SPEC §6.6): which emit/include combinations are valid for the aggregation.
 */
final class WindowParser {
    private final Problems problems;
    private final QuerySettings settings;

    WindowParser(Problems problems, QuerySettings settings) {
        this.problems = problems;
        this.settings = settings;
    }

    Window parse(JsonElement e, Aggregation aggregation) {
        if (absent(e)) {
            return null;
        }
        if (!e.isJsonObject() || !e.getAsJsonObject().has("emit") || !e.getAsJsonObject().get("emit").isJsonObject()) {
            problems.error("\"window\" must have an \"emit\" object, got " + describe(e),
                  "Write \"window\": {\"emit\": {\"type\": \"TIME\", \"every\": 5000}}");
            return null;
        }
        // every part is checked, so that every problem is listed; the parts' combination only once each is valid
        JsonObject emit = e.getAsJsonObject().getAsJsonObject("emit");
        String emitType = upper(emit.get("type"));
        boolean valid = true;
        if (!emitType.equals("TIME") && !emitType.equals("RECORD")) {
            problems.error("window.emit.type must be TIME or RECORD, got " + describe(emit.get("type")), "Use \"TIME\" or \"RECORD\"");
            valid = false;
        }
        Long every = problems.wholeNumber(emit.get("every"), "window.emit.every");
        if (every != null && every <= 0) {
            problems.error("window.emit.every must be positive, got " + every, "Give a positive number of "
                  + (emitType.equals("RECORD") ? "records" : "milliseconds"));
            every = null;
        }
        valid &= every != null;
        JsonElement includeElement = e.getAsJsonObject().get("include");
        String includeType = null;
        Long first = null;
        if (!absent(includeElement)) {
            if (!includeElement.isJsonObject()) {
                problems.error("window.include must be an object, got " + describe(includeElement),
                      "Write \"include\": {\"type\": \"ALL\"} or {\"type\": \"TIME\", \"first\": 5000}");
                valid = false;
            } else {
                JsonObject include = includeElement.getAsJsonObject();
                includeType = upper(include.get("type"));
                if (!Set.of("TIME", "RECORD", "ALL").contains(includeType)) {
                    problems.error("window.include.type must be TIME, RECORD or ALL, got " + describe(include.get("type")),
                          "Use \"TIME\", \"RECORD\" or \"ALL\"");
                    valid = false;
                }
                if (!includeType.equals("ALL") && !absent(include.get("first"))) {
                    first = problems.wholeNumber(include.get("first"), "window.include.first");
                    valid &= first != null;
                }
            }
        }
        if (emitType.equals("RECORD") && aggregation != null && aggregation.type() != AggregationType.RAW) {
            problems.error("RECORD windows are only supported for RAW queries, not " + aggregation.type().name().replace('_', ' '),
                  "Use a TIME window, or a RAW aggregation");
            valid = false;
        }
        if (!valid) {
            return null;
        }
        if (emitType.equals("RECORD")) {
            if (includeType != null && !includeType.equals("RECORD")) {
                problems.error("A RECORD window can only include RECORD, got include " + includeType,
                      "Use \"include\": {\"type\": \"RECORD\", \"first\": " + every + "} or leave include out");
                return null;
            }
            if (first != null && !first.equals(every)) {
                problems.error("window.include.first (" + first + ") must equal window.emit.every (" + every + ") for RECORD windows",
                      "Set both to " + every);
                return null;
            }
            if (every > settings.rawMaxSize()) {
                // the Join holds a RECORD window's rows until it is full: its size is bounded as a RAW query's is
                problems.warn("window.emit.every " + every + " records was lowered to the maximum "
                              + settings.rawMaxSize() + " (bullet.query.aggregation.raw.max.size)",
                              "Ask for RECORD windows of at most " + settings.rawMaxSize() + " records");
                return new Window(Window.Kind.SLIDING, settings.rawMaxSize());
            }
            return new Window(Window.Kind.SLIDING, every);
        }
        if ("RECORD".equals(includeType)) {
            problems.error("A TIME window cannot include RECORD", "Use \"include\": {\"type\": \"TIME\"} or {\"type\": \"ALL\"}");
            return null;
        }
        if ("TIME".equals(includeType) && first != null && !first.equals(every)) {
            problems.error("window.include.first (" + first + ") must equal window.emit.every (" + every + ") for TIME windows",
                  "Set both to " + every + ", or use \"include\": {\"type\": \"ALL\"}");
            return null;
        }
        long every2 = every;
        if (every2 < settings.minEmitEveryMs()) {
            problems.warn("window.emit.every " + every2 + " ms was raised to the minimum " + settings.minEmitEveryMs() + " ms",
                 "Use windows of at least " + settings.minEmitEveryMs() + " ms (bullet.query.window.min.emit.every)");
            every2 = settings.minEmitEveryMs();
        }
        return new Window("ALL".equals(includeType) ? Window.Kind.ADDITIVE_TUMBLING : Window.Kind.TUMBLING, every2);
    }

    private static String upper(JsonElement e) {
        return isString(e) ? e.getAsString().trim().toUpperCase(Locale.ROOT) : "";
    }
}
