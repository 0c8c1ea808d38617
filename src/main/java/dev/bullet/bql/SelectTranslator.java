package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.outputName;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.SortItem;
import dev.bullet.bql.BqlAst.Unsupported;
import dev.bullet.query.expr.ExprJson;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SELECT list of the queries without aggregates: fields as a RAW query's projection ({@code SELECT a, b AS x}),
 * whole records ({@code SELECT *}), and {@code SELECT DISTINCT} as a GROUP without operations. Every other item of a
 * plain SELECT ({@code a + 5}, {@code TRIM(c) AS t}, {@code CAST(x AS DOUBLE)}, {@code 5 AS a}, a predicate, a field with
 * a computed key) is a computed column of the projection ({@code "computed": {"name": expression}}), evaluated on the
 * record as bullet-core's projection does, named as bullet-bql names it.
 */
final class SelectTranslator extends ClauseTranslator {
    /** The RAW size of a BQL query without LIMIT: bullet-core's default for RAW (its raw.max.size). */
    static final int DEFAULT_RAW_LIMIT = 100;

    private final PostAggregationTranslator postAggregations;

    SelectTranslator(TranslationContext ctx, PostAggregationTranslator postAggregations) {
        super(ctx);
        this.postAggregations = postAggregations;
    }

    void select(JsonObject json, JsonArray post) {
        JsonObject fields = new JsonObject();
        JsonObject computed = new JsonObject();
        Map<String, String> outputs = new LinkedHashMap<>();
        ExprBuilder expressions = new ExprBuilder(ctx, "the SELECT list");
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            String out = outputName(item);
            claim(outputs, out, item.pos());
            if (e instanceof Field f && hasPath(f)) {
                String path = path(f);
                if (fields.has(path)) {
                    error(item.pos(), f.name() + " is selected twice", "Select each field once; use one name for it");
                }
                fields.addProperty(path, out);
                outputs.put(out, f.name());
            } else if (e instanceof Unsupported) {
                unsupportedInSelect(item);
            } else {
                var expression = expressions.build(item.expr());
                if (expression != null) {
                    computed.add(out, ExprJson.toJson(expression));
                }
            }
        }
        postAggregations.orderBy(post, outputs.keySet());
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "RAW");
        aggregation.addProperty("size", q.limit() != null && q.limit() > 0 ? q.limit() : DEFAULT_RAW_LIMIT);
        if (fields.size() > 0 || computed.size() > 0) {
            JsonObject projection = new JsonObject();
            if (fields.size() > 0) {
                projection.add("fields", fields);
            }
            if (computed.size() > 0) {
                projection.add("computed", computed);
            }
            json.add("projection", projection);
        }
        json.add("aggregation", aggregation);
    }

    private void claim(Map<String, String> outputs, String name, Pos pos) {
        if (outputs.containsKey(name)) {
            error(pos, "two columns are named " + name, "Give one of them another name with AS");
        }
        outputs.putIfAbsent(name, name);
    }

    void selectAll(JsonObject json, JsonArray post) {
        for (SelectItem item : q.select()) {
            if (item.expr() != null) {
                error(item.pos(), "SELECT * cannot be combined with other columns (" + name(item.expr()) + ")",
                      "Write SELECT * alone for whole records, or list every field you want: SELECT a, b AS x");
            }
        }
        for (SortItem s : q.orderBy()) {
            if (!(strip(s.expr()) instanceof Field)) {
                error(s.expr().pos(), "ORDER BY " + name(s.expr()) + " is not a field", "Order by fields of the records");
            }
        }
        postAggregations.orderBy(post, null);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "RAW");
        aggregation.addProperty("size", q.limit() != null && q.limit() > 0 ? q.limit() : DEFAULT_RAW_LIMIT);
        json.add("aggregation", aggregation);
    }

    void selectDistinct(JsonObject json, JsonArray post) {
        JsonObject fields = new JsonObject();
        Map<String, String> outputs = new LinkedHashMap<>();
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            if (e instanceof Field f) {
                String out = outputName(item);
                claim(outputs, out, item.pos());
                fields.addProperty(path(f), out);
            } else {
                error(item.pos(), "SELECT DISTINCT of " + name(item.expr()) + " is not supported: only fields",
                      "Select distinct fields, e.g. SELECT DISTINCT a, b.c FROM STREAM()");
            }
        }
        postAggregations.orderBy(post, outputs.keySet());
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "GROUP");
        sizeFromLimit(aggregation);
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("groupValuesAsStrings", true);
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }
}
