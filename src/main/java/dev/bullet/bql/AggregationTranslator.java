package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.TOP_K_DEFAULT_NAME;
import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.strip;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Distribution;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.SortItem;
import dev.bullet.bql.BqlAst.TopK;
import dev.bullet.query.expr.ExprJson;
import dev.bullet.query.expr.ExprType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The aggregating queries, as bullet-bql 1.3.2's QueryBuilder builds them: GROUP BY with COUNT/SUM/AVG/MIN/MAX (and
 * HAVING), GROUP BY ... ORDER BY COUNT(*) DESC LIMIT k (which bullet-bql runs as TOP K), COUNT(DISTINCT ...),
 * QUANTILE/FREQ/CUMFREQ and TOP(...). The aggregation's columns are a {@link Scope} layer; the post-aggregations
 * ({@link PostAggregationTranslator}) compute the other select items over them, order, and cull the grouped and
 * aggregated columns that were used but not selected.
 */
final class AggregationTranslator extends ClauseTranslator {
    private final FilterTranslator filters;
    private final PostAggregationTranslator postAggregations;

    AggregationTranslator(TranslationContext ctx, FilterTranslator filters, PostAggregationTranslator postAggregations) {
        super(ctx);
        this.filters = filters;
        this.postAggregations = postAggregations;
    }

    /** The column of a group field or an aggregate: its alias, or its name ({@code Count} for TOP). */
    private String columnOf(Expr e) {
        String alias = aliasOf(e);
        return alias != null ? alias : e instanceof TopK ? TOP_K_DEFAULT_NAME : name(strip(e));
    }

    /**
     * The column of a TOP operand: its alias, or its name as written, parentheses kept ({@code TOP(1, (a + 1))}
     * counts a column {@code (a + 1)}, as bullet-bql names it).
     */
    private String topColumnOf(Expr e) {
        String alias = aliasOf(e);
        return alias != null ? alias : name(e);
    }

    /** Adds a column of the aggregation to the scope's new layer, and its alias when it has one. */
    private void addColumn(Scope scope, Expr e, Set<String> columns) {
        addColumn(scope, e, columnOf(e), columns);
    }

    private void addColumn(Scope scope, Expr e, String out, Set<String> columns) {
        if (!columns.add(out)) {
            error(e.pos(), "two columns are named " + out, "Give one of them another name with AS");
        }
        scope.column(out, e instanceof TopK ? ExprType.LONG : typeOf(e));
        if (aliasOf(e) != null) {
            scope.alias(name(strip(e)), out);
        }
    }

    boolean isSpecialK(List<Expr> aggregates) {
        if (q.groupBy().isEmpty() || aggregates.size() != 1 || q.orderBy().size() != 1 || q.limit() == null) {
            return false;
        }
        if (!(aggregates.get(0) instanceof Aggregate count) || count.operand() != null) {
            return false;
        }
        Set<String> selected = q.select().stream().map(i -> name(strip(i.expr()))).collect(Collectors.toSet());
        if (!selected.contains(name(count)) || !q.groupBy().stream().allMatch(g -> selected.contains(name(strip(g))))) {
            return false;
        }
        String countName = columnOf(count);
        SortItem sort = q.orderBy().get(0);
        String sortName = name(strip(sort.expr()));
        if (!(sortName.equals(name(count)) || sortName.equals(countName)) || !sort.descending()) {
            return false;
        }
        if (q.having() == null) {
            return true;
        }
        if (!(strip(q.having()) instanceof Binary b) || !b.op().equals(">=") || b.modifier() != null || b.not()) {
            return false;
        }
        String left = name(strip(b.left()));
        return (left.equals(name(count)) || left.equals(countName)) && b.right() instanceof Literal l && l.value() instanceof Number;
    }

    /** GROUP BY a ... ORDER BY COUNT(*) DESC LIMIT k: bullet-bql runs it as TOP K, computing the other items after. */
    void specialK(JsonObject json, JsonArray post, List<Expr> aggregates) {
        Aggregate count = (Aggregate) aggregates.get(0);
        JsonObject fields = new JsonObject();
        Scope scope = new Scope();
        Set<String> columns = new HashSet<>();
        Operands operands = new Operands(q.groupBy(), "GROUP BY");
        for (Expr g : q.groupBy()) {
            fields.addProperty(operands.path(g), columnOf(g));
            addColumn(scope, g, columns);
        }
        operands.project(json);
        String countName = columnOf(count);
        addColumn(scope, count, columns);
        scope.addLayer(true);
        postAggregations.computations(post, scope);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "TOP K");
        aggregation.addProperty("size", q.limit());
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("newName", countName);
        attributes.addProperty("groupValuesAsStrings", true);
        if (q.having() != null) {
            Literal threshold = (Literal) ((Binary) strip(q.having())).right();
            attributes.addProperty("threshold", ((Number) threshold.value()).longValue());
        }
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    /**
     * GROUP BY with COUNT/SUM/AVG/MIN/MAX (or the aggregates alone): the group fields and aggregates are the columns;
     * then HAVING, the other select items computed, ORDER BY, and the columns not selected culled.
     */
    void group(JsonObject json, JsonArray post, List<Expr> aggregates) {
        JsonObject fields = new JsonObject();
        Scope scope = new Scope();
        Set<String> columns = new HashSet<>();
        List<Expr> all = new ArrayList<>(q.groupBy());
        aggregates.stream().map(a -> ((Aggregate) a).operand()).filter(o -> o != null).forEach(all::add);
        Operands operands = new Operands(all, "GROUP BY and the aggregates");
        for (Expr g : q.groupBy()) {
            fields.addProperty(operands.path(g), columnOf(g));
            addColumn(scope, g, columns);
        }
        JsonArray operations = groupOperations(aggregates, scope, columns, operands);
        operands.project(json);
        scope.addLayer(true);
        postAggregations.having(post, scope);
        postAggregations.computations(post, scope);
        postAggregations.orderBy(post, scope);
        postAggregations.cullUnselected(post, scope);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "GROUP");
        sizeFromLimit(aggregation);
        if (fields.size() > 0) {
            aggregation.add("fields", fields);
        }
        JsonObject attributes = new JsonObject();
        if (!operations.isEmpty()) {
            attributes.add("operations", operations);
        }
        if (fields.size() > 0) {
            attributes.addProperty("groupValuesAsStrings", true);
        }
        if (attributes.size() > 0) {
            aggregation.add("attributes", attributes);
        }
        json.add("aggregation", aggregation);
    }

    /** The GROUP operations of the aggregates, each a column of the scope. */
    private JsonArray groupOperations(List<Expr> aggregates, Scope scope, Set<String> columns, Operands operands) {
        JsonArray operations = new JsonArray();
        for (Expr a : aggregates) {
            Aggregate agg = (Aggregate) a;
            JsonObject op = new JsonObject();
            op.addProperty("type", agg.op());
            if (agg.operand() != null) {
                op.addProperty("field", operands.path(agg.operand()));
                // bullet-core's reading: booleans as 1/0, numeric strings as numbers, results as doubles
                op.addProperty("coerce", true);
            }
            op.addProperty("newName", columnOf(agg));
            addColumn(scope, agg, columns);
            operations.add(op);
        }
        return operations;
    }

    void countDistinct(JsonObject json, JsonArray post, CountDistinct cd, List<Expr> aggregates) {
        noLimit("COUNT(DISTINCT ...)");
        noOrderBy("COUNT(DISTINCT ...)");
        JsonObject fields = new JsonObject();
        Operands operands = new Operands(cd.operands(), "COUNT(DISTINCT ...)");
        for (Expr e : cd.operands()) {
            fields.addProperty(operands.path(e), name(strip(e)));
        }
        operands.project(json);
        String out = columnOf(cd);
        Scope scope = new Scope();
        addColumn(scope, cd, new HashSet<>());
        scope.addLayer(true);
        postAggregations.computations(post, scope);
        postAggregations.cullUnselected(post, scope);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "COUNT DISTINCT");
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("newName", out);
        attributes.addProperty("groupValuesAsStrings", true);
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    void distribution(JsonObject json, JsonArray post, Distribution d, List<Expr> aggregates) {
        JsonObject fields = new JsonObject();
        Operands operands = new Operands(List.of(d.operand()), d.type());
        fields.addProperty(operands.path(d.operand()), name(strip(d.operand())));
        operands.project(json);
        JsonObject attributes = new JsonObject();
        // bullet-core's reading: booleans as 1/0, numeric strings as numbers
        attributes.addProperty("coerce", true);
        attributes.addProperty("type", switch (d.type()) {
            case "QUANTILE" -> "QUANTILE";
            case "FREQ" -> "PMF";
            default -> "CDF";
        });
        List<Double> n = d.numbers();
        switch (d.mode()) {
            case "LINEAR" -> attributes.addProperty("numberOfPoints", n.get(0).longValue());
            case "REGION" -> {
                attributes.addProperty("start", n.get(0));
                attributes.addProperty("end", n.get(1));
                attributes.addProperty("increment", n.get(2));
            }
            default -> {
                JsonArray points = new JsonArray();
                n.forEach(points::add);
                attributes.add("points", points);
            }
        }
        Scope scope = new Scope();
        if (d.type().equals("QUANTILE")) {
            scope.column("Value", ExprType.DOUBLE);
            scope.column("Quantile", ExprType.DOUBLE);
        } else {
            scope.column("Probability", ExprType.DOUBLE);
            scope.column("Count", ExprType.DOUBLE);
            scope.column("Range", ExprType.STRING);
        }
        scope.addLayer(true);
        postAggregations.computations(post, scope);
        postAggregations.orderBy(post, scope);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "DISTRIBUTION");
        sizeFromLimit(aggregation);
        aggregation.add("fields", fields);
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    void topK(JsonObject json, JsonArray post, TopK t, List<Expr> aggregates) {
        noLimit("TOP(...)");
        noOrderBy("TOP(...)");
        JsonObject fields = new JsonObject();
        Scope scope = new Scope();
        Set<String> columns = new HashSet<>();
        Operands operands = new Operands(t.operands(), "TOP(...)");
        for (Expr e : t.operands()) {
            fields.addProperty(operands.path(e), topColumnOf(e));
            addColumn(scope, e, topColumnOf(e), columns);
        }
        operands.project(json);
        addColumn(scope, t, columns);
        scope.addLayer(true);
        postAggregations.computations(post, scope);
        if (t.size() <= 0) {
            error(t.pos(), "the TOP size must be positive, got " + t.size(), "Write TOP(10, a)");
        }
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "TOP K");
        aggregation.addProperty("size", t.size());
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("newName", columnOf(t));
        attributes.addProperty("groupValuesAsStrings", true);
        if (t.threshold() != null) {
            attributes.addProperty("threshold", t.threshold());
        }
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    private void noLimit(String what) {
        if (q.limit() != null) {
            error(q.limitPos(), what + " cannot have a LIMIT", "Remove LIMIT" + (what.startsWith("TOP") ? "; the size is TOP's first argument" : ""));
        }
    }

    private void noOrderBy(String what) {
        if (!q.orderBy().isEmpty()) {
            error(q.orderBy().get(0).expr().pos(), what + " cannot have ORDER BY", "Remove ORDER BY");
        }
    }

    /**
     * The operands of an aggregation (GROUP BY items, aggregate arguments, COUNT DISTINCT's, TOP's, a distribution's).
     * When every one is a field with a path, the aggregation reads the record's fields by path, as before. When one is
     * an expression, bullet-bql projects every operand under its name (a NO_COPY projection) and aggregates over those
     * names: here each operand becomes a computed column of the projection ({@code "computed"} alone, so the projected
     * record holds only them, as bullet-core's), and the aggregation reads it by name.
     */
    private final class Operands {
        private final boolean computed;
        private final JsonObject columns = new JsonObject();
        private final ExprBuilder expressions;

        Operands(List<Expr> operands, String where) {
            this.computed = operands.stream().anyMatch(e -> !(strip(e) instanceof Field f && readByPath(f)));
            this.expressions = new ExprBuilder(ctx, where);
        }

        /** The path the aggregation reads for the operand: its field path, or its computed column's name. */
        String path(Expr operand) {
            Expr e = strip(operand);
            if (!computed) {
                return path((Field) e);
            }
            String column = name(e);
            if (!columns.has(column)) {
                var expression = expressions.build(operand);
                if (expression != null) {
                    columns.add(column, ExprJson.toJson(expression));
                }
            }
            return column;
        }

        private String path(Field f) {
            return AggregationTranslator.this.path(f);
        }

        /** Adds the projection of the computed columns to the query, when there are any. */
        void project(JsonObject json) {
            if (computed && columns.size() > 0) {
                JsonObject projection = new JsonObject();
                projection.add("computed", columns);
                json.add("projection", projection);
            }
        }
    }
}
