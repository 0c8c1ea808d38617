package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.TopK;
import dev.bullet.bql.BqlAst.Distribution;
import dev.bullet.bql.BqlAst.Unsupported;

import dev.bullet.query.expr.ExprType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * Whether a field has a dotted path: no key computed by an expression, no key that is empty or holds a dot, no
     * key written as a string of digits ({@code a."0"}, {@code a['0']}: a map key in BQL, which a path would read as
     * a list index).
     */
    static boolean hasPath(Field f) {
        return f.segments().stream().noneMatch(s -> s instanceof BqlAst.Expr || s.toString().isEmpty() || s.toString().contains("."))
               && f.segments().stream().skip(1).noneMatch(ClauseTranslator::digitKey);
    }

    /**
     * Whether a field is read by its path where bullet-core reads it alike: a path of at most two segments
     * ({@code a}, {@code a.b}, {@code a[0]}). A deeper one ({@code a.b.c}, {@code a[2].k}) bullet-core reads only
     * through a container it types (a map of maps, a list of maps); a container mixing maps and other values gives
     * it nothing, where the path would read on. Such a field is evaluated as an expression, as bullet-core does.
     */
    static boolean readByPath(Field f) {
        return hasPath(f) && f.segments().size() <= 2;
    }

    private static boolean digitKey(Object segment) {
        return segment instanceof String s && !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The dotted path of a field (SPEC §5): a.b, a.0, a.0.b. */
    final String path(Field f) {
        if (f.computed()) {
            error(f.pos(), f.name() + " has a key computed by an expression, which a field path cannot hold",
                  "Give the key as a literal: field['key'] or field[0]");
            return f.name();
        }
        StringBuilder path = new StringBuilder();
        List<Object> segments = f.segments();
        for (int i = 1; i < segments.size(); i++) {
            if (digitKey(segments.get(i))) {
                error(f.pos(), "the key '" + segments.get(i) + "' of " + f.name() + " is a map key of digits, which a field path "
                               + "would read as a list index", "Use the field in an expression, or an index: field[0]");
            }
        }
        for (Object segment : segments) {
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

    /**
     * The alias bullet-bql gives an expression: the AS of the first select item with the same expression (by name),
     * unless it is the expression's own name; null for none. It names the expression wherever it appears (GROUP BY,
     * the aggregates).
     */
    final String aliasOf(Expr e) {
        if (aliases == null) { // once a query: a wide SELECT asks for every item's alias
            aliases = new HashMap<>();
            for (SelectItem item : q.select()) {
                if (item.expr() != null && item.alias() != null) {
                    String n = name(strip(item.expr()));
                    if (!item.alias().equals(n) || item.expr() instanceof TopK) {
                        aliases.putIfAbsent(n, item.alias());
                    }
                }
            }
        }
        return aliases.get(name(strip(e)));
    }

    /** {@link #aliasOf} by the expression's name: the first item of that name with another alias. */
    private Map<String, String> aliases;

    /** The column bullet-bql names a select item's expression: its alias or its name. */
    final String outputOf(SelectItem item) {
        String alias = aliasOf(item.expr());
        return alias != null ? alias : BqlNames.outputName(item);
    }

    /**
     * bullet-bql's select nodes: the select items but {@code *}, TOP and distributions, each expression once (by
     * name), in order.
     */
    final List<SelectItem> selectNodes() {
        List<SelectItem> nodes = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (SelectItem item : q.select()) {
            Expr e = item.expr();
            if (e != null && !(strip(e) instanceof TopK) && !(strip(e) instanceof Distribution) && seen.add(name(e))) {
                nodes.add(item);
            }
        }
        return nodes;
    }

    /** The type bullet-bql gives an expression (UNKNOWN when it cannot tell), without reporting anything. */
    final ExprType typeOf(Expr e) {
        return new BqlTypeChecker(new TranslationContext(q)).type(e);
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
