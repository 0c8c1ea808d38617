package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.TOP_K_DEFAULT_NAME;
import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.BqlNames.outputName;
import static dev.bullet.bql.BqlNames.strip;
import static dev.bullet.bql.PostAggregationTranslator.aggregateColumns;
import static dev.bullet.bql.PostAggregationTranslator.computationStep;
import static dev.bullet.bql.PostAggregationTranslator.isArithmetic;

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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The aggregating queries: GROUP BY with COUNT/SUM/AVG/MIN/MAX (and HAVING), GROUP BY ... ORDER BY COUNT(*) DESC
 * LIMIT k (which bullet-bql runs as TOP K), COUNT(DISTINCT ...), QUANTILE/FREQ/CUMFREQ and TOP(...). A grouped or
 * aggregated column that is used but not selected is an error: bullet-bql drops it from the rows after use, and the
 * model has no such step.
 */
final class AggregationTranslator extends ClauseTranslator {
    private final FilterTranslator filters;
    private final PostAggregationTranslator postAggregations;

    AggregationTranslator(TranslationContext ctx, FilterTranslator filters, PostAggregationTranslator postAggregations) {
        super(ctx);
        this.filters = filters;
        this.postAggregations = postAggregations;
    }

    /** Output name of each group field (by its BQL name) or aggregate (by its BQL name). */
    private String aliasOf(Expr e) {
        String n = name(strip(e));
        for (SelectItem item : q.select()) {
            if (item.expr() != null && name(strip(item.expr())).equals(n)) {
                return outputName(item);
            }
        }
        return e instanceof TopK ? TOP_K_DEFAULT_NAME : n;
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
        String countName = aliasOf(count);
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

    /** GROUP BY a ... ORDER BY COUNT(*) DESC LIMIT k: bullet-bql runs it as TOP K. */
    void specialK(JsonObject json, List<Expr> aggregates) {
        Aggregate count = (Aggregate) aggregates.get(0);
        JsonObject fields = new JsonObject();
        Map<String, String> outputs = new LinkedHashMap<>();
        Operands operands = new Operands(q.groupBy(), "GROUP BY");
        for (Expr g : q.groupBy()) {
            String out = aliasOf(g);
            fields.addProperty(operands.path(g), out);
            outputs.put(out, out);
        }
        operands.project(json);
        String countName = aliasOf(count);
        outputs.put(countName, countName);
        checkOnlyGroupColumns(outputs);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "TOP K");
        aggregation.addProperty("size", q.limit());
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("newName", countName);
        if (q.having() != null) {
            Literal threshold = (Literal) ((Binary) strip(q.having())).right();
            attributes.addProperty("threshold", (long) Math.ceil(((Number) threshold.value()).doubleValue()));
        }
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    /** Every select item of a special K is a group field or the count (computations are not mapped). */
    private void checkOnlyGroupColumns(Map<String, String> outputs) {
        for (SelectItem item : q.select()) {
            if (!outputs.containsKey(outputName(item))) {
                error(item.pos(), name(item.expr()) + " cannot be computed over the top counts",
                      "Select only the grouped fields and COUNT(*)");
            }
        }
    }

    void group(JsonObject json, JsonArray post, List<Expr> aggregates) {
        JsonObject fields = new JsonObject();
        Map<String, String> columns = new LinkedHashMap<>();
        List<Expr> all = new ArrayList<>(q.groupBy());
        aggregates.stream().map(a -> ((Aggregate) a).operand()).filter(o -> o != null).forEach(all::add);
        Operands operands = new Operands(all, "GROUP BY and the aggregates");
        groupFields(fields, columns, operands);
        JsonArray operations = groupOperations(aggregates, columns, operands);
        operands.project(json);
        checkGroupSelect(columns);
        having(post, columns);
        Map<String, String> outputs = groupComputations(post, columns);
        postAggregations.orderBy(post, outputs.keySet());
        checkGroupColumnsSelected(columns);
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

    /** The GROUP BY fields into {@code fields} (path → output name) and {@code columns} (output → BQL name). */
    private void groupFields(JsonObject fields, Map<String, String> columns, Operands operands) {
        for (Expr g : q.groupBy()) {
            String out = aliasOf(g);
            if (columns.containsKey(out)) {
                error(g.pos(), "two columns are named " + out, "Give one of them another name with AS");
            }
            fields.addProperty(operands.path(g), out);
            columns.put(out, name(strip(g)));
        }
    }

    /** The GROUP operations of the aggregates, each added to {@code columns} (output → BQL name). */
    private JsonArray groupOperations(List<Expr> aggregates, Map<String, String> columns, Operands operands) {
        JsonArray operations = new JsonArray();
        for (Expr a : aggregates) {
            Aggregate agg = (Aggregate) a;
            String out = aliasOf(agg);
            JsonObject op = new JsonObject();
            op.addProperty("type", agg.op());
            if (agg.operand() != null) {
                op.addProperty("field", operands.path(agg.operand()));
                // bullet-core's reading: booleans as 1/0, numeric strings as numbers, results as doubles
                op.addProperty("coerce", true);
            }
            op.addProperty("newName", out);
            if (columns.containsKey(out)) {
                error(agg.pos(), "two columns are named " + out, "Give one of them another name with AS");
            }
            columns.put(out, name(agg));
            operations.add(op);
        }
        return operations;
    }

    /** Every select item of a GROUP is a grouped field, an aggregate, or arithmetic over them. */
    private void checkGroupSelect(Map<String, String> columns) {
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            String out = outputName(item);
            if (columns.containsKey(out) && (e instanceof Field || e instanceof Aggregate || isGrouped(e))) {
                continue;
            }
            if (e instanceof Field f) {
                error(item.pos(), f.name() + " is selected but neither grouped nor aggregated",
                      "Add " + f.name() + " to GROUP BY, or aggregate it: MIN(" + f.name() + ")");
            } else if (isArithmetic(e)) {
                // computed by groupComputations, after HAVING
            } else {
                unsupportedInSelect(item);
            }
        }
    }

    /** Whether a select item is one of the GROUP BY expressions (a group column, not a computation). */
    private boolean isGrouped(Expr e) {
        String n = name(strip(e));
        return q.groupBy().stream().anyMatch(g -> name(strip(g)).equals(n));
    }

    /** HAVING as a post-aggregation over the result columns. */
    private void having(JsonArray post, Map<String, String> columns) {
        if (q.having() != null) {
            JsonObject clause = filters.clause(q.having(), false, columns, "HAVING");
            if (clause != null) {
                JsonObject having = new JsonObject();
                having.addProperty("type", "HAVING");
                having.add("filter", clause);
                post.add(having);
            }
        }
    }

    /** Arithmetic select items as COMPUTATION steps; the result's columns (output names) after them. */
    private Map<String, String> groupComputations(JsonArray post, Map<String, String> columns) {
        Map<String, String> outputs = new LinkedHashMap<>(columns);
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            if (isArithmetic(e) && !(e instanceof Field) && !(e instanceof Aggregate) && !isGrouped(e)) {
                String out = outputName(item);
                JsonObject expression = postAggregations.computation(item.expr(), aggregateColumns(columns), "the SELECT list");
                if (outputs.containsKey(out)) {
                    error(item.pos(), "two columns are named " + out, "Give one of them another name with AS");
                }
                outputs.put(out, out);
                if (expression != null) {
                    post.add(computationStep(expression, out));
                }
            }
        }
        return outputs;
    }

    /** Every grouped field and aggregate is selected: the model cannot drop a column after using it. */
    private void checkGroupColumnsSelected(Map<String, String> columns) {
        Set<String> selected = q.select().stream().map(BqlNames::outputName).collect(Collectors.toSet());
        for (Map.Entry<String, String> column : columns.entrySet()) {
            if (!selected.contains(column.getKey())) {
                error(null, column.getValue() + " is grouped or aggregated but not selected: bullet-bql drops such a column "
                            + "after using it, this project keeps every grouped and aggregated column",
                      "Add " + column.getValue() + " to the SELECT list");
            }
        }
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
        String out = aliasOf(cd);
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put(out, name(cd));
        otherItemsAsComputations(post, columns, cd);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "COUNT DISTINCT");
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("newName", out);
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    private void otherItemsAsComputations(JsonArray post, Map<String, String> columns, Expr aggregate) {
        boolean selected = false;
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            if (name(e).equals(name(aggregate))) {
                selected = true;
            } else if (isArithmetic(e) && !(e instanceof Field)) {
                JsonObject expression = postAggregations.computation(item.expr(), aggregateColumns(columns), "the SELECT list");
                if (expression != null) {
                    post.add(computationStep(expression, outputName(item)));
                }
            } else {
                error(item.pos(), "selecting " + name(item.expr()) + " next to " + name(aggregate) + " is not supported",
                      "Select " + name(aggregate) + " alone, or arithmetic over it");
            }
        }
        if (!selected) {
            error(aggregate.pos(), name(aggregate) + " is used but not selected: bullet-bql drops it after use, this project "
                                   + "keeps it", "Add " + name(aggregate) + " to the SELECT list");
        }
    }

    void distribution(JsonObject json, JsonArray post, Distribution d, List<Expr> aggregates) {
        for (SelectItem item : q.select()) {
            if (!(strip(item.expr()) instanceof Distribution)) {
                error(item.pos(), "selecting " + name(item.expr()) + " next to a distribution is not supported",
                      "Select the distribution alone");
            }
        }
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
        postAggregations.orderBy(post, Set.of("Quantile", "Value", "Probability", "Count", "Range"));
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "DISTRIBUTION");
        sizeFromLimit(aggregation);
        aggregation.add("fields", fields);
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    void topK(JsonObject json, TopK t, List<Expr> aggregates) {
        noLimit("TOP(...)");
        noOrderBy("TOP(...)");
        JsonObject fields = new JsonObject();
        Set<String> operandNames = new LinkedHashSet<>();
        Operands operands = new Operands(t.operands(), "TOP(...)");
        for (Expr e : t.operands()) {
            fields.addProperty(operands.path(e), aliasOf(e));
            operandNames.add(name(strip(e)));
        }
        operands.project(json);
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            if (!(e instanceof TopK) && !operandNames.contains(name(e))) {
                error(item.pos(), "selecting " + name(item.expr()) + " next to TOP(...) is not supported",
                      "Select TOP(k, fields) alone, optionally with its fields to rename them");
            }
        }
        if (t.size() <= 0) {
            error(t.pos(), "the TOP size must be positive, got " + t.size(), "Write TOP(10, a)");
        }
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "TOP K");
        aggregation.addProperty("size", t.size());
        aggregation.add("fields", fields);
        JsonObject attributes = new JsonObject();
        attributes.addProperty("newName", aliasOf(t));
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
            this.computed = operands.stream().anyMatch(e -> !(strip(e) instanceof Field f && hasPath(f)));
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
