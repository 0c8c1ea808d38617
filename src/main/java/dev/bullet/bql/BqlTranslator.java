package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Between;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.Cast;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Distribution;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Parens;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.TopK;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.common.BulletError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Maps a parsed BQL statement onto the JSON query model (SPEC §6) the way bullet-bql 1.3 maps it onto bullet-core's
 * query: the same query type for the same statement, the same result column names ({@code COUNT(*)},
 * {@code SUM(x)}, {@code COUNT(DISTINCT a)}, {@code Count} for TOP, the alias when there is one), and the same
 * row filter under three-valued logic.
 *
 * <p>This class decides the query as a whole: which one query type the statement is, the checks on HAVING, LIMIT and
 * the STREAM duration, and the assembly of the JSON query. Each clause is mapped by its own translator:
 * {@link FilterTranslator} (WHERE, HAVING), {@link SelectTranslator} (the queries without aggregates),
 * {@link AggregationTranslator} (GROUP BY, COUNT DISTINCT, distributions, TOP), {@link PostAggregationTranslator}
 * (ORDER BY, arithmetic in SELECT) and {@link WindowTranslator} (WINDOWING).
 *
 * <p>What bullet-bql would run but the model cannot express exactly is an error naming the construct and the
 * nearest form that works: e.g. a grouped or aggregated column that is used but not selected (bullet-bql drops it
 * from the rows after use; the model has no such step). {@code LATERAL VIEW} and EXPLODE in SELECT are translated by
 * {@link TableFunctionTranslator}. Expressions become the expression model through {@link ExprBuilder}: WHERE
 * conjuncts the clauses cannot express, computed SELECT items of RAW queries, and the operands of an aggregation when
 * one is not a plain field (computed columns the aggregation reads by name).
 * Every problem found is reported, not just the first.
 */
final class BqlTranslator {
    private final BqlAst.Query q;
    private final TranslationContext ctx;
    private final FilterTranslator filters;
    private final SelectTranslator select;
    private final AggregationTranslator aggregation;
    private final WindowTranslator window;

    private BqlTranslator(BqlAst.Query q) {
        this.q = q;
        this.ctx = new TranslationContext(q);
        PostAggregationTranslator postAggregations = new PostAggregationTranslator(ctx);
        this.filters = new FilterTranslator(ctx);
        this.select = new SelectTranslator(ctx, postAggregations);
        this.aggregation = new AggregationTranslator(ctx, filters, postAggregations);
        this.window = new WindowTranslator(ctx);
    }

    record Translation(JsonObject query, List<BulletError> errors) {
    }

    static Translation translate(BqlAst.Query q) {
        if (q.subquery() != null) {
            return translateNested(q);
        }
        BqlTranslator t = new BqlTranslator(q);
        JsonObject json = t.build();
        List<BulletError> errors = t.ctx.errors();
        return errors.isEmpty() ? new Translation(json, List.of()) : new Translation(null, errors);
    }

    /**
     * {@code SELECT ... FROM (subquery)}: the subquery is the query, the statement around it its
     * {@code "outerQuery"} (as bullet-bql 1.3.2 builds bullet-core's outer query); each is translated on its own and
     * the problems of both are reported, the inner query's first.
     */
    private static Translation translateNested(BqlAst.Query q) {
        Translation inner = translate(q.subquery());
        Translation outer = translate(q.outer());
        List<BulletError> errors = new ArrayList<>(inner.errors());
        errors.addAll(outer.errors());
        if (!errors.isEmpty()) {
            return new Translation(null, errors);
        }
        JsonObject json = inner.query().deepCopy();
        json.add("outerQuery", outer.query());
        return new Translation(json, List.of());
    }

    private enum Type { SELECT, SELECT_ALL, SELECT_DISTINCT, GROUP, COUNT_DISTINCT, DISTRIBUTION, TOP_K }

    /** The JSON query, or null when the statement mixes query types (the problems are in the context). */
    private JsonObject build() {
        new BqlTypeChecker(ctx).check(q);
        List<Expr> aggregates = aggregates();
        checkAggregatePlacement();
        checkAliases();
        Type type = type(aggregates);
        if (type == null) {
            return null;
        }
        checkQueryLevel();
        JsonObject json = new JsonObject();
        JsonArray where = filters.filters();
        if (where != null && !where.isEmpty()) {
            json.add("filters", where);
        }
        JsonArray post = new JsonArray();
        translateType(type, json, post, aggregates);
        new TableFunctionTranslator(ctx).translate(json, type == Type.SELECT);
        if (!post.isEmpty()) {
            json.add("postAggregations", post);
        }
        JsonObject windowJson = window.window(type == Type.SELECT || type == Type.SELECT_ALL);
        if (windowJson != null) {
            json.add("window", windowJson);
        }
        if (q.duration() != null) {
            json.addProperty("duration", q.duration());
        }
        return json;
    }

    /** The distinct aggregates of the SELECT list, HAVING and ORDER BY, in order of appearance. */
    private List<Expr> aggregates() {
        List<Expr> everywhere = new ArrayList<>();
        q.select().stream().map(SelectItem::expr).filter(e -> e != null).forEach(everywhere::add);
        if (q.having() != null) {
            everywhere.add(q.having());
        }
        q.orderBy().forEach(s -> everywhere.add(s.expr()));
        List<Expr> aggregates = new ArrayList<>();
        everywhere.forEach(e -> collectAggregates(e, aggregates));
        return aggregates;
    }

    /** WHERE and GROUP BY cannot use aggregates. */
    private void checkAggregatePlacement() {
        if (q.where() != null) {
            List<Expr> inWhere = new ArrayList<>();
            collectAggregates(q.where(), inWhere);
            if (!inWhere.isEmpty()) {
                ctx.error(inWhere.get(0).pos(), "WHERE cannot use the aggregate " + name(inWhere.get(0)),
                          "Filter on aggregates with HAVING after GROUP BY");
            }
        }
        for (Expr e : q.groupBy()) {
            List<Expr> inGroup = new ArrayList<>();
            collectAggregates(e, inGroup);
            if (!inGroup.isEmpty()) {
                ctx.error(e.pos(), "GROUP BY cannot use the aggregate " + name(inGroup.get(0)), "Group by fields only");
            }
        }
    }

    /** One expression, one alias: bullet-bql names an expression by its alias everywhere. */
    private void checkAliases() {
        Map<String, String> aliases = new HashMap<>();
        for (SelectItem item : q.select()) {
            if (item.expr() == null || item.alias() == null) {
                continue;
            }
            String n = name(strip(item.expr()));
            if (item.alias().equals(n) && !(strip(item.expr()) instanceof TopK)) {
                continue;
            }
            String before = aliases.putIfAbsent(n, item.alias());
            if (before != null && !before.equals(item.alias())) {
                ctx.error(item.pos(), n + " has two aliases, " + before + " and " + item.alias()
                                      + " (bullet-bql gives an expression one alias)",
                          "Select " + n + " once, or alias it once");
            }
        }
    }

    /** The one query type of the statement, or null (with an error) when it mixes several. */
    private Type type(List<Expr> aggregates) {
        Set<Type> types = new LinkedHashSet<>();
        if (q.distinct()) {
            types.add(Type.SELECT_DISTINCT);
        }
        if (q.select().stream().anyMatch(i -> i.expr() == null)) {
            types.add(Type.SELECT_ALL);
        }
        for (Expr a : aggregates) {
            types.add(a instanceof Aggregate ? Type.GROUP : a instanceof CountDistinct ? Type.COUNT_DISTINCT
                    : a instanceof Distribution ? Type.DISTRIBUTION : Type.TOP_K);
        }
        if (!q.groupBy().isEmpty()) {
            types.add(Type.GROUP);
        }
        if (!onlyOneOfEach(aggregates)) {
            return null;
        }
        if (types.size() > 1) {
            ctx.error(null, "The query mixes " + types.stream().map(BqlTranslator::describe).collect(Collectors.joining(" and "))
                            + "; a BQL query is one of them",
                      "Keep one: SELECT fields, SELECT *, SELECT DISTINCT, GROUP BY with COUNT/SUM/AVG/MIN/MAX, "
                      + "COUNT(DISTINCT ...), a distribution, or TOP(...)");
            return null;
        }
        return types.isEmpty() ? Type.SELECT : types.iterator().next();
    }

    /**
     * At most one COUNT(DISTINCT ...), one distribution and one TOP(...), as bullet-bql requires (the same one may
     * appear twice): the model holds one of each. False (with an error) otherwise.
     */
    private boolean onlyOneOfEach(List<Expr> aggregates) {
        boolean ok = true;
        for (Class<?> kind : List.of(CountDistinct.class, Distribution.class, TopK.class)) {
            List<Expr> ofKind = aggregates.stream().filter(kind::isInstance).toList();
            if (ofKind.size() > 1) {
                String what = kind == CountDistinct.class ? "COUNT(DISTINCT ...)" : kind == TopK.class ? "TOP(...)"
                        : "distribution (QUANTILE, FREQ, CUMFREQ)";
                ctx.error(ofKind.get(1).pos(), "a query can have only one " + what + ", got " + name(ofKind.get(0))
                                               + " and " + name(ofKind.get(1)),
                          "Run one query per " + what);
                ok = false;
            }
        }
        return ok;
    }

    /** HAVING needs GROUP BY; LIMIT and the STREAM duration must be positive. */
    private void checkQueryLevel() {
        if (q.having() != null && q.groupBy().isEmpty()) {
            ctx.error(q.having().pos(), "HAVING needs GROUP BY", "Add GROUP BY, or move the condition into WHERE");
        }
        if (q.limit() != null && q.limit() <= 0) {
            ctx.error(q.limitPos(), "LIMIT must be positive, got " + q.limit(), "Give LIMIT 1 or more, or leave it out");
        }
        if (q.duration() != null && q.duration() <= 0) {
            ctx.error(null, "The STREAM duration must be positive, got " + q.duration(), "Write STREAM(30000, TIME) or STREAM()");
        }
    }

    /** The aggregation (and projection) of the query type, with its post-aggregation steps added to {@code post}. */
    private void translateType(Type type, JsonObject json, JsonArray post, List<Expr> aggregates) {
        switch (type) {
            case SELECT -> select.select(json, post);
            case SELECT_ALL -> select.selectAll(json, post);
            case SELECT_DISTINCT -> select.selectDistinct(json, post);
            case GROUP -> {
                if (aggregation.isSpecialK(aggregates)) {
                    aggregation.specialK(json, post, aggregates);
                } else {
                    aggregation.group(json, post, aggregates);
                }
            }
            case COUNT_DISTINCT -> aggregation.countDistinct(json, post, (CountDistinct) aggregates.get(0), aggregates);
            case DISTRIBUTION -> aggregation.distribution(json, post, (Distribution) aggregates.get(0), aggregates);
            default -> aggregation.topK(json, post, (TopK) aggregates.get(0), aggregates);
        }
    }

    private static String describe(Type type) {
        return switch (type) {
            case SELECT -> "a plain SELECT";
            case SELECT_ALL -> "SELECT *";
            case SELECT_DISTINCT -> "SELECT DISTINCT";
            case GROUP -> "GROUP BY/COUNT/SUM/AVG/MIN/MAX";
            case COUNT_DISTINCT -> "COUNT(DISTINCT ...)";
            case DISTRIBUTION -> "QUANTILE/FREQ/CUMFREQ";
            case TOP_K -> "TOP(...)";
        };
    }

    /** Adds the aggregates in {@code e} (not already in {@code out}, by name) to {@code out}. */
    static void collectAggregates(Expr e, List<Expr> out) {
        if (e instanceof Aggregate || e instanceof CountDistinct || e instanceof Distribution || e instanceof TopK) {
            if (out.stream().noneMatch(x -> name(x).equals(name(e)))) {
                out.add(e);
            }
            return;
        }
        if (e instanceof Binary b) {
            collectAggregates(b.left(), out);
            collectAggregates(b.right(), out);
        } else if (e instanceof Unary u) {
            collectAggregates(u.operand(), out);
        } else if (e instanceof IsNull n) {
            collectAggregates(n.operand(), out);
        } else if (e instanceof Parens p) {
            collectAggregates(p.inner(), out);
        } else if (e instanceof Call c) {
            c.args().forEach(a -> collectAggregates(a, out));
        } else if (e instanceof ListExpr l) {
            l.items().forEach(a -> collectAggregates(a, out));
        } else if (e instanceof Between b) {
            collectAggregates(b.value(), out);
            collectAggregates(b.lower(), out);
            collectAggregates(b.upper(), out);
        } else if (e instanceof Cast c) {
            collectAggregates(c.operand(), out);
        } else if (e instanceof Field f) {
            f.segments().stream().filter(s -> s instanceof Expr).forEach(s -> collectAggregates((Expr) s, out));
        }
    }
}
