package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.outputName;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.SortItem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The post-aggregation steps shared by every query type: ORDER BY as ORDERBY steps, and arithmetic in the SELECT
 * list as COMPUTATION steps over the result columns.
 */
final class PostAggregationTranslator extends ClauseTranslator {
    PostAggregationTranslator(TranslationContext ctx) {
        super(ctx);
    }

    void orderBy(JsonArray post, Set<String> columns) {
        if (q.orderBy().isEmpty()) {
            return;
        }
        List<JsonObject> steps = new ArrayList<>();
        for (SortItem s : q.orderBy()) {
            Expr e = strip(s.expr());
            String column = null;
            if (columns == null) {
                column = e instanceof Field f ? path(f) : null;
            } else {
                String n = name(e);
                if (columns.contains(n)) {
                    column = n;
                } else {
                    for (SelectItem item : q.select()) {
                        if (item.expr() != null && name(strip(item.expr())).equals(n) && columns.contains(outputName(item))) {
                            column = outputName(item);
                        }
                    }
                }
                if (column == null) {
                    error(s.expr().pos(), "ORDER BY " + name(s.expr()) + " is not a column of the result",
                          "Order by a selected column (its name or alias); add " + name(s.expr()) + " to the SELECT list");
                    continue;
                }
            }
            if (column == null) {
                continue;
            }
            JsonObject step = new JsonObject();
            step.addProperty("type", "ORDERBY");
            JsonArray f = new JsonArray();
            f.add(column);
            step.add("fields", f);
            step.addProperty("direction", s.descending() ? "DESC" : "ASC");
            steps.add(step);
        }
        // one stable sort per key, least significant first, equals one sort over all the keys
        for (int i = steps.size() - 1; i >= 0; i--) {
            post.add(steps.get(i));
        }
    }

    static JsonObject computationStep(JsonObject expression, String name) {
        JsonObject step = new JsonObject();
        step.addProperty("type", "COMPUTATION");
        step.add("expression", expression);
        step.addProperty("newName", name);
        return step;
    }

    static boolean isArithmetic(Expr e) {
        e = strip(e);
        if (e instanceof Binary b) {
            return Set.of("+", "-", "*", "/").contains(b.op()) && isArithmetic(b.left()) && isArithmetic(b.right());
        }
        return e instanceof Field || e instanceof Aggregate || e instanceof CountDistinct
               || e instanceof Literal l && l.value() instanceof Number;
    }

    /** The COMPUTATION expression of arithmetic over result columns ({@code columns}: usable name → column). */
    JsonObject computation(Expr e, Map<String, String> columns, String where) {
        e = strip(e);
        if (e instanceof Binary b && Set.of("+", "-", "*", "/").contains(b.op())) {
            JsonObject left = computation(b.left(), columns, where);
            JsonObject right = computation(b.right(), columns, where);
            if (left == null || right == null) {
                return null;
            }
            JsonObject o = new JsonObject();
            o.addProperty("operation", b.op());
            o.add("left", left);
            o.add("right", right);
            return o;
        }
        JsonObject value = new JsonObject();
        if (e instanceof Literal l && l.value() instanceof Number number) {
            value.addProperty("kind", "VALUE");
            value.addProperty("value", number.toString());
            value.addProperty("type", number instanceof Integer ? "INTEGER" : number instanceof Long ? "LONG"
                    : number instanceof Float ? "FLOAT" : "DOUBLE");
        } else {
            String column = columns.get(name(e));
            if (column == null) {
                error(e.pos(), name(e) + " in " + where + " is not a selected column",
                      "Select " + name(e) + " too; arithmetic works on the columns of the result");
                return null;
            }
            value.addProperty("kind", "FIELD");
            value.addProperty("value", column);
        }
        JsonObject leaf = new JsonObject();
        leaf.add("value", value);
        return leaf;
    }

    /** Columns that computations and HAVING may use: output names, reachable by BQL name or by alias. */
    static Map<String, String> aggregateColumns(Map<String, String> columns) {
        Map<String, String> byName = new LinkedHashMap<>();
        columns.forEach((out, bqlName) -> {
            byName.put(out, out);
            byName.putIfAbsent(bqlName, out);
        });
        return byName;
    }
}
