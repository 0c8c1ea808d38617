package dev.bullet.bql;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.TableFn;
import dev.bullet.query.expr.ExprJson;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code LATERAL VIEW [OUTER] EXPLODE(...) AS ...} (chained) into {@code "lateralView"}, and an EXPLODE in the SELECT
 * list into {@code "tableFunction"} (the other items of that SELECT are computed onto the generated records by
 * {@link SelectTranslator}), as bullet-bql 1.3.2 builds bullet-core's LateralView and Explode, with its errors: a SELECT table function only in a plain SELECT, at most one, never beside a LATERAL VIEW; no aggregate in
 * a table function; different key and value aliases.
 */
final class TableFunctionTranslator extends ClauseTranslator {
    TableFunctionTranslator(TranslationContext ctx) {
        super(ctx);
    }

    /**
     * Adds the table function to the query. {@code plainSelect}: the query is a SELECT of fields (no *, DISTINCT
     * or aggregate), the only query a SELECT table function may be in.
     */
    void translate(JsonObject json, boolean plainSelect) {
        List<TableFn> selected = q.selectTableFunctions();
        if (!selected.isEmpty()) {
            selectTableFunction(json, selected, plainSelect);
            return;
        }
        if (q.lateralViews().isEmpty()) {
            return;
        }
        JsonArray views = new JsonArray();
        for (TableFn view : q.lateralViews()) {
            JsonObject explode = explode(view);
            if (explode != null) {
                views.add(explode);
            }
        }
        json.add("lateralView", views);
    }

    private void selectTableFunction(JsonObject json, List<TableFn> selected, boolean plainSelect) {
        TableFn first = selected.get(0);
        if (selected.stream().anyMatch(t -> !t.equals(first) && !sameFunction(t, first))) {
            error(selected.get(1).pos(), "Cannot select multiple table functions", "Select only one table function");
        }
        if (!q.lateralViews().isEmpty()) {
            error(first.pos(), "Selecting a table function is not supported in queries with a LATERAL VIEW clause",
                  "Remove either the table function or the LATERAL VIEW clause");
        }
        if (!plainSelect) {
            error(first.pos(), "Selecting a table function is not supported with other aggregation types",
                  "Move the selected table function to a LATERAL VIEW clause");
        }
        JsonObject explode = explode(first);
        if (explode != null) {
            json.add("tableFunction", explode);
        }
    }

    private static boolean sameFunction(TableFn a, TableFn b) {
        return a.outer() == b.outer() && BqlNames.name(a.field()).equals(BqlNames.name(b.field()))
               && a.keyAlias().equals(b.keyAlias())
               && (a.valueAlias() == null ? b.valueAlias() == null : a.valueAlias().equals(b.valueAlias()));
    }

    /** The JSON of one explode, or null (with the errors in the context). */
    private JsonObject explode(TableFn t) {
        List<Expr> aggregates = new ArrayList<>();
        BqlTranslator.collectAggregates(t.field(), aggregates);
        if (!aggregates.isEmpty()) {
            error(t.pos(), "Table functions cannot contain aggregates", "Explode a field or a non-aggregate expression");
            return null;
        }
        if (t.keyAlias().equals(t.valueAlias())) {
            error(t.pos(), "The key and value aliases of EXPLODE are both " + t.keyAlias(),
                  "Give the key and the value different aliases");
        }
        var field = new ExprBuilder(ctx, "EXPLODE").build(t.field());
        if (field == null) {
            return null;
        }
        JsonObject explode = new JsonObject();
        explode.add("explode", ExprJson.toJson(field));
        explode.addProperty("keyAlias", t.keyAlias());
        if (t.valueAlias() != null) {
            explode.addProperty("valueAlias", t.valueAlias());
        }
        if (t.outer()) {
            explode.addProperty("outer", true);
        }
        return explode;
    }
}
