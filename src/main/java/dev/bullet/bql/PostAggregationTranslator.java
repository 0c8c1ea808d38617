package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Between;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.Cast;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Parens;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.SortItem;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.query.expr.ExprJson;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The post-aggregation steps, as bullet-bql 1.3.2's QueryBuilder adds them to bullet-core's query, over the columns
 * of a {@link Scope}: HAVING as a condition ({@code doGroup}), the select items that are no column yet as one
 * COMPUTATION ({@code doComputation}), ORDER BY as one ORDERBY of expressions ({@code doOrderBy}), and the columns
 * that were only needed along the way removed by a CULLING ({@code doTransient}, and the extra ORDER BY fields of a
 * plain SELECT).
 */
final class PostAggregationTranslator extends ClauseTranslator {
    PostAggregationTranslator(TranslationContext ctx) {
        super(ctx);
    }

    /** An expression over the scope's columns (and, below an unlocked layer, the record's fields), or null. */
    JsonObject expression(Expr e, Scope scope, String where) {
        var built = new ExprBuilder(ctx, where, scope).build(e);
        return built == null ? null : ExprJson.toJson(built);
    }

    /** ORDER BY as one ORDERBY step over the scope (nothing without ORDER BY). */
    void orderBy(JsonArray post, Scope scope) {
        if (q.orderBy().isEmpty()) {
            return;
        }
        JsonArray items = new JsonArray();
        for (SortItem s : q.orderBy()) {
            JsonObject expression = expression(s.expr(), scope, "ORDER BY");
            if (expression != null) {
                JsonObject item = new JsonObject();
                item.add("expression", expression);
                item.addProperty("direction", s.descending() ? "DESC" : "ASC");
                items.add(item);
            }
        }
        JsonObject step = new JsonObject();
        step.addProperty("type", "ORDERBY");
        step.add("fields", items);
        post.add(step);
    }

    /** HAVING as a condition over the scope, with bullet-bql's type checks of its comparisons. */
    void having(JsonArray post, Scope scope) {
        if (q.having() == null) {
            return;
        }
        checkHavingTypes(q.having());
        JsonObject expression = expression(q.having(), scope, "HAVING");
        if (expression != null) {
            JsonObject step = new JsonObject();
            step.addProperty("type", "HAVING");
            step.add("expression", expression);
            post.add(step);
        }
    }

    private void checkHavingTypes(Expr e) {
        e = strip(e);
        if (e instanceof Unary u && u.op().equals("NOT")) {
            checkHavingTypes(u.operand());
        } else if (e instanceof Binary b && (b.op().equals("AND") || b.op().equals("OR"))) {
            checkHavingTypes(b.left());
            checkHavingTypes(b.right());
        } else if (e instanceof Binary b && HavingTypes.mismatch(b, q) != null) {
            error(b.pos(), HavingTypes.mismatch(b, q), "Compare with a literal of the column's type, e.g. HAVING COUNT(*) >= 5");
        }
    }

    /**
     * The select items that are no column of the scope, computed over the row as one COMPUTATION step (nothing when
     * there are none); their columns become a new, unlocked layer of the scope.
     */
    void computations(JsonArray post, Scope scope) {
        JsonObject fields = new JsonObject();
        List<String> names = new ArrayList<>();
        for (SelectItem item : selectNodes()) {
            if (scope.find(name(item.expr())) != null) {
                continue;
            }
            JsonObject expression = expression(item.expr(), scope, "the SELECT list");
            String out = outputOf(item);
            if (aliasOf(item.expr()) != null) {
                scope.alias(name(item.expr()), out);
            }
            scope.column(out, typeOf(item.expr()));
            if (names.contains(out)) {
                error(item.pos(), "two columns are named " + out, "Give one of them another name with AS");
            }
            names.add(out);
            if (expression != null) {
                fields.add(out, expression);
            }
        }
        if (fields.size() > 0) {
            JsonObject step = new JsonObject();
            step.addProperty("type", "COMPUTATION");
            step.add("fields", fields);
            post.add(step);
        }
        scope.addLayer(false);
    }

    /** The scope's columns that are not selected, removed by a CULLING step ({@code doTransient}). */
    void cullUnselected(JsonArray post, Scope scope) {
        Set<String> transients = new LinkedHashSet<>(scope.visibleColumns());
        selectNodes().forEach(item -> transients.remove(outputOf(item)));
        cull(post, transients);
    }

    static void cull(JsonArray post, Set<String> columns) {
        if (columns.isEmpty()) {
            return;
        }
        JsonArray fields = new JsonArray();
        columns.forEach(fields::add);
        JsonObject step = new JsonObject();
        step.addProperty("type", "CULLING");
        step.add("fields", fields);
        post.add(step);
    }

    /**
     * The record fields an ORDER BY of a plain SELECT reads beside the selected columns (bullet-bql's
     * OrderByProcessor): the top name of each field in it that is no column; each is added to the scope's top layer.
     */
    Set<String> orderByFields(Scope scope) {
        Set<String> extra = new LinkedHashSet<>();
        q.orderBy().forEach(s -> extraFields(s.expr(), scope, extra));
        return extra;
    }

    private void extraFields(Expr e, Scope scope, Set<String> extra) {
        if (scope.find(name(e)) != null) {
            return;
        }
        if (e instanceof Field f) {
            String top = (String) f.segments().get(0);
            if (scope.find(top) == null) {
                scope.addToTop(top);
                extra.add(top);
            }
            f.segments().stream().filter(s -> s instanceof Expr).forEach(s -> extraFields((Expr) s, scope, extra));
        } else if (e instanceof Binary b) {
            extraFields(b.left(), scope, extra);
            extraFields(b.right(), scope, extra);
        } else if (e instanceof Unary u) {
            extraFields(u.operand(), scope, extra);
        } else if (e instanceof IsNull n) {
            extraFields(n.operand(), scope, extra);
        } else if (e instanceof Parens p) {
            extraFields(p.inner(), scope, extra);
        } else if (e instanceof Call c) {
            c.args().forEach(a -> extraFields(a, scope, extra));
        } else if (e instanceof ListExpr l) {
            l.items().forEach(a -> extraFields(a, scope, extra));
        } else if (e instanceof Between b) {
            extraFields(b.value(), scope, extra);
            extraFields(b.lower(), scope, extra);
            extraFields(b.upper(), scope, extra);
        } else if (e instanceof Cast c) {
            extraFields(c.operand(), scope, extra);
        }
    }
}
