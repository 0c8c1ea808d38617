package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.TableFn;
import dev.bullet.bql.BqlAst.Unsupported;
import dev.bullet.query.expr.ExprJson;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The queries without aggregates, as bullet-bql 1.3.2 builds them ({@code doSelect}, {@code doSelectAll},
 * {@code doSelectTableFunction}, {@code doSelectDistinct}):
 * <ul>
 *   <li>a plain SELECT projects its items (a field as a projected field, anything else as a computed column), plus
 *       the record fields its ORDER BY reads, which a CULLING removes after the ORDERBY;</li>
 *   <li>{@code SELECT *, items} keeps the whole record and, when an item is computed or renamed, writes the items onto
 *       it (bullet-core's COPY projection, here a COMPUTATION over the RAW rows, which are the records); a renamed
 *       field's old name is then culled; an EXPLODE in SELECT does the same over the generated records (without the
 *       culling);</li>
 *   <li>{@code SELECT DISTINCT} is a GROUP without operations over the items (computed first when one is not a
 *       field).</li>
 * </ul>
 */
final class SelectTranslator extends ClauseTranslator {
    private final PostAggregationTranslator postAggregations;

    SelectTranslator(TranslationContext ctx, PostAggregationTranslator postAggregations) {
        super(ctx);
        this.postAggregations = postAggregations;
    }

    void select(JsonObject json, JsonArray post) {
        if (!q.selectTableFunctions().isEmpty()) {
            selectOnto(json, post, false);
            return;
        }
        JsonObject fields = new JsonObject();
        JsonObject computed = new JsonObject();
        Map<String, JsonElement> outputs = new LinkedHashMap<>();
        Scope scope = new Scope();
        ExprBuilder expressions = new ExprBuilder(ctx, "the SELECT list");
        for (SelectItem item : selectNodes()) {
            Expr e = strip(item.expr());
            String out = outputOf(item);
            if (e instanceof Unsupported) {
                unsupportedInSelect(item);
                continue;
            }
            var expression = expressions.build(item.expr());
            if (expression == null || !claim(outputs, out, ExprJson.toJson(expression), item)) {
                continue;
            }
            scope.column(out);
            if (aliasOf(item.expr()) != null) {
                scope.alias(name(item.expr()), out);
            }
            if (e instanceof Field f && readByPath(f)) {
                fields.addProperty(path(f), out);
            } else {
                computed.add(out, ExprJson.toJson(expression));
            }
        }
        scope.addLayer(true);
        Set<String> extra = postAggregations.orderByFields(scope);
        extra.forEach(f -> fields.addProperty(f, f));
        postAggregations.orderBy(post, scope);
        PostAggregationTranslator.cull(post, extra);
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
        json.add("aggregation", raw());
    }

    /**
     * Whether a column is new: the same name for the same expression again is one column (bullet-bql keeps a set of
     * projected fields), for another expression an error.
     */
    private boolean claim(Map<String, JsonElement> outputs, String name, JsonElement expression, SelectItem item) {
        JsonElement before = outputs.putIfAbsent(name, expression);
        if (before == null) {
            return true;
        }
        if (!before.equals(expression)) {
            error(item.pos(), "two columns are named " + name, "Give one of them another name with AS");
        }
        return false;
    }

    private JsonObject raw() {
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "RAW");
        // without LIMIT no size: the deployment's default, clamped to bullet.query.aggregation.raw.max.size, as
        // bullet-core sizes a RAW query without one (min(default.size, raw.max.size)) under the same settings
        sizeFromLimit(aggregation);
        return aggregation;
    }

    void selectAll(JsonObject json, JsonArray post) {
        selectOnto(json, post, true);
    }

    /**
     * {@code SELECT *, items} ({@code all}) or {@code SELECT EXPLODE(...) AS ..., items}: the records (or the
     * generated records) whole, with the items written onto them when one is computed or renamed.
     */
    private void selectOnto(JsonObject json, JsonArray post, boolean all) {
        Scope scope = new Scope();
        if (!q.selectTableFunctions().isEmpty()) {
            TableFn t = q.selectTableFunctions().get(0);
            scope.column(t.keyAlias());
            if (t.valueAlias() != null) {
                scope.column(t.valueAlias());
            }
            scope.addLayer(true);
        }
        boolean copy = false;
        JsonObject columns = new JsonObject();
        Map<String, JsonElement> outputs = new LinkedHashMap<>();
        for (SelectItem item : selectNodes()) {
            Expr e = strip(item.expr());
            String out = outputOf(item);
            if (e instanceof Unsupported) {
                unsupportedInSelect(item);
                continue;
            }
            // bullet-bql copies the record unless every item is a plain top-level field without an alias
            copy |= !(e instanceof Field f && f.segments().size() == 1) || aliasOf(item.expr()) != null;
            JsonObject expression = postAggregations.expression(item.expr(), scope, "the SELECT list");
            if (expression == null || !claim(outputs, out, expression, item)) {
                continue;
            }
            columns.add(out, expression);
        }
        for (SelectItem item : selectNodes()) {
            String out = outputOf(item);
            scope.column(out);
            if (aliasOf(item.expr()) != null) {
                scope.alias(name(item.expr()), out);
            }
        }
        if (copy && columns.size() > 0) {
            JsonObject step = new JsonObject();
            step.addProperty("type", "COMPUTATION");
            step.add("fields", columns);
            post.add(step);
        }
        scope.addLayer(false);
        postAggregations.orderBy(post, scope);
        if (copy && all) {
            PostAggregationTranslator.cull(post, scope.extraneousAliases());
        }
        json.add("aggregation", raw());
    }

    void selectDistinct(JsonObject json, JsonArray post) {
        JsonObject fields = new JsonObject();
        JsonObject computed = new JsonObject();
        Map<String, JsonElement> outputs = new LinkedHashMap<>();
        Scope scope = new Scope();
        ExprBuilder expressions = new ExprBuilder(ctx, "the SELECT list");
        boolean project = selectNodes().stream().anyMatch(i -> !(strip(i.expr()) instanceof Field f && readByPath(f)));
        for (SelectItem item : selectNodes()) {
            String out = outputOf(item);
            String itemName = name(item.expr());
            var expression = expressions.build(item.expr());
            if (expression == null) {
                continue;
            }
            if (outputs.containsKey(out)) {
                error(item.pos(), "two columns are named " + out, "Give one of them another name with AS");
            }
            outputs.put(out, ExprJson.toJson(expression));
            scope.column(out);
            if (aliasOf(item.expr()) != null) {
                scope.alias(itemName, out);
            }
            if (project) {
                computed.add(itemName, ExprJson.toJson(expression));
                fields.addProperty(itemName, out);
            } else {
                fields.addProperty(path((Field) strip(item.expr())), out);
            }
        }
        if (project) {
            JsonObject projection = new JsonObject();
            projection.add("computed", computed);
            json.add("projection", projection);
        }
        scope.addLayer(true);
        postAggregations.orderBy(post, scope);
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
