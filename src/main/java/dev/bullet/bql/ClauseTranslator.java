package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.Unsupported;

/**
 * The base of the clause translators: access to the statement, error reporting into the shared
 * {@link TranslationContext}, and the mappings more than one clause needs (field paths, LIMIT as a size, the error
 * for a select item the model cannot compute).
 */
abstract class ClauseTranslator {
    final TranslationContext ctx;
    final BqlAst.Query q;

    ClauseTranslator(TranslationContext ctx) {
        this.ctx = ctx;
        this.q = ctx.q;
    }

    final void error(Pos pos, String message, String... resolutions) {
        ctx.error(pos, message, resolutions);
    }

    /** Whether a field has a dotted path: no key computed by an expression, no key that is empty or holds a dot. */
    static boolean hasPath(Field f) {
        return f.segments().stream().noneMatch(s -> s instanceof BqlAst.Expr || s.toString().isEmpty() || s.toString().contains("."));
    }

    /** The dotted path of a field (SPEC §5): a.b, a.0, a.0.b. */
    final String path(Field f) {
        if (f.computed()) {
            error(f.pos(), f.name() + " has a key computed by an expression, which a field path cannot hold",
                  "Give the key as a literal: field['key'] or field[0]");
            return f.name();
        }
        StringBuilder path = new StringBuilder();
        for (Object segment : f.segments()) {
            String s = segment.toString();
            if (s.contains(".") || s.isEmpty()) {
                error(f.pos(), "the key '" + s + "' of " + f.name() + " is empty or contains a dot, which a field path cannot hold",
                      "Use keys without dots; paths are written a.b.c");
            }
            if (path.length() > 0) {
                path.append('.');
            }
            path.append(s);
        }
        return path.toString();
    }

    /** LIMIT as the aggregation's size, when it is given and positive. */
    final void sizeFromLimit(JsonObject aggregation) {
        if (q.limit() != null && q.limit() > 0) {
            aggregation.addProperty("size", q.limit());
        }
    }

    /** The error for a select item that is neither a field nor arithmetic the model can compute. */
    final void unsupportedInSelect(SelectItem item) {
        Expr e = strip(item.expr());
        if (e instanceof Unsupported u) {
            error(u.pos(), u.what() + " is not supported", u.resolution());
        } else {
            error(item.pos(), "selecting " + name(item.expr()) + " is not supported",
                  "Select fields (a, a.b, a[0], a['k']) or arithmetic (+ - * /) over selected columns");
        }
    }
}
