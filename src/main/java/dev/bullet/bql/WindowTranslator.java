package dev.bullet.bql;

import com.google.gson.JsonObject;

/** WINDOWING: {@code EVERY(...)} and {@code TUMBLING(...)} as the model's window (emit and include). */
final class WindowTranslator extends ClauseTranslator {
    WindowTranslator(TranslationContext ctx) {
        super(ctx);
    }

    /**
     * The window of the query, or null without WINDOWING. {@code raw}: the query has no aggregate (bullet-core's
     * RAW), which bullet-core 1.5.2 refuses an EVERY(..., ALL) window.
     */
    JsonObject window(boolean raw) {
        BqlAst.Window w = q.window();
        if (w == null) {
            return null;
        }
        if (raw && "ALL".equals(w.includeUnit())) {
            error(w.pos(), "WINDOWING EVERY(..., ALL) needs an aggregate: bullet-bql rejects it for a query that selects "
                           + "records (RAW)",
                  "Use WINDOWING TUMBLING(" + w.every() + ", " + w.emitUnit() + ") for the records of each window, or "
                  + "aggregate them (COUNT(*), GROUP BY ...)");
        }
        JsonObject emit = new JsonObject();
        emit.addProperty("type", w.emitUnit());
        emit.addProperty("every", w.every());
        JsonObject include = new JsonObject();
        if (w.includeUnit() == null) {
            include.addProperty("type", w.emitUnit());
            include.addProperty("first", w.every());
        } else {
            include.addProperty("type", w.includeUnit());
            if (w.first() != null) {
                include.addProperty("first", w.first());
            }
        }
        JsonObject window = new JsonObject();
        window.add("emit", emit);
        window.add("include", include);
        return window;
    }
}
