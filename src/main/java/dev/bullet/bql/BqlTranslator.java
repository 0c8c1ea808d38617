package dev.bullet.bql;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Distribution;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.Parens;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlAst.SelectItem;
import dev.bullet.bql.BqlAst.TopK;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.bql.BqlAst.Unsupported;
import dev.bullet.common.BulletError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Maps a parsed BQL statement onto the JSON query model (SPEC §6) the way bullet-bql 1.3 maps it onto bullet-core's
 * query: the same query type for the same statement, the same result column names ({@code COUNT(*)},
 * {@code SUM(x)}, {@code COUNT(DISTINCT a)}, {@code Count} for TOP, the alias when there is one), and the same
 * row filter under three-valued logic (a comparison with a missing field is neither true nor false, so
 * {@code NOT} is pushed down to the leaves in a null-safe form).
 *
 * <p>What bullet-bql would run but the model cannot express exactly is an error naming the construct and the
 * nearest form that works: e.g. a grouped or aggregated column that is used but not selected (bullet-bql drops it
 * from the rows after use; the model has no such step), arithmetic in WHERE, {@code CAST}, {@code LATERAL VIEW}.
 * Every problem found is reported, not just the first.
 */
final class BqlTranslator {
    /** The RAW size of a BQL query without LIMIT: bullet-core's default for RAW (its raw.max.size). */
    static final int DEFAULT_RAW_LIMIT = 100;
    /** The column bullet-bql gives TOP(k, ...) without an alias. */
    static final String TOP_K_DEFAULT_NAME = "Count";

    private final BqlAst.Query q;
    private final List<BulletError> errors = new ArrayList<>();

    private BqlTranslator(BqlAst.Query q) {
        this.q = q;
    }

    record Translation(JsonObject query, List<BulletError> errors) {
    }

    static Translation translate(BqlAst.Query q) {
        BqlTranslator t = new BqlTranslator(q);
        JsonObject json = t.build();
        return t.errors.isEmpty() ? new Translation(json, List.of()) : new Translation(null, List.copyOf(t.errors));
    }

    private void error(Pos pos, String message, String... resolutions) {
        errors.add(BulletError.of((pos == null ? "" : "BQL " + pos + ": ") + message, resolutions));
    }

    // ----------------------------------------------------------------------------------------- naming

    /** The column name bullet-bql gives an expression (its ExpressionFormatter without quoting). */
    static String name(Expr e) {
        if (e instanceof Field f) {
            return f.name();
        }
        if (e instanceof Literal l) {
            Object v = l.value();
            if (v == null) {
                return "NULL";
            }
            if (v instanceof String s) {
                return "'" + s + "'";
            }
            return v instanceof Long ? v + "L" : v instanceof Float ? v + "f" : v.toString();
        }
        if (e instanceof ListExpr l) {
            String items = l.items().stream().map(BqlTranslator::name).collect(Collectors.joining(", "));
            return l.parenthesized() ? "(" + items + ")" : "[" + items + "]";
        }
        if (e instanceof Binary b) {
            String op = (b.not() ? "NOT " : "") + b.op() + (b.modifier() == null ? "" : " " + b.modifier());
            return name(b.left()) + " " + op + " " + name(b.right());
        }
        if (e instanceof Unary u) {
            return u.parenthesized() ? u.op() + "(" + name(u.operand()) + ")" : u.op() + " " + name(u.operand());
        }
        if (e instanceof IsNull n) {
            return name(n.operand()) + (n.not() ? " IS NOT NULL" : " IS NULL");
        }
        if (e instanceof Call c) {
            return c.function() + "(" + c.args().stream().map(BqlTranslator::name).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof Aggregate a) {
            return a.operand() == null ? "COUNT(*)" : a.op() + "(" + name(a.operand()) + ")";
        }
        if (e instanceof CountDistinct c) {
            return "COUNT(DISTINCT " + c.operands().stream().map(BqlTranslator::name).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof TopK t) {
            return "TOP(" + t.size() + ", " + (t.threshold() == null ? "" : t.threshold() + ", ")
                   + t.operands().stream().map(BqlTranslator::name).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof Distribution d) {
            return d.type() + "(" + name(d.operand()) + ", " + d.mode() + ", "
                   + d.numbers().stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
        }
        if (e instanceof Parens p) {
            return "(" + name(p.inner()) + ")";
        }
        return ((Unsupported) e).what();
    }

    private static String outputName(SelectItem item) {
        return item.alias() != null ? item.alias() : item.expr() instanceof TopK ? TOP_K_DEFAULT_NAME : name(item.expr());
    }

    private static Expr strip(Expr e) {
        while (e instanceof Parens p) {
            e = p.inner();
        }
        return e;
    }

    /** The dotted path of a field (SPEC §5): a.b, a.0, a.0.b. */
    private String path(Field f) {
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

    // ----------------------------------------------------------------------------------------- the query

    private enum Type { SELECT, SELECT_ALL, SELECT_DISTINCT, GROUP, COUNT_DISTINCT, DISTRIBUTION, TOP_K }

    private JsonObject build() {
        List<Expr> everywhere = new ArrayList<>();
        q.select().stream().map(SelectItem::expr).filter(e -> e != null).forEach(everywhere::add);
        if (q.having() != null) {
            everywhere.add(q.having());
        }
        q.orderBy().forEach(s -> everywhere.add(s.expr()));
        List<Expr> aggregates = new ArrayList<>();
        everywhere.forEach(e -> collectAggregates(e, aggregates));
        if (q.where() != null) {
            List<Expr> inWhere = new ArrayList<>();
            collectAggregates(q.where(), inWhere);
            if (!inWhere.isEmpty()) {
                error(inWhere.get(0).pos(), "WHERE cannot use the aggregate " + name(inWhere.get(0)),
                      "Filter on aggregates with HAVING after GROUP BY");
            }
        }
        for (Expr e : q.groupBy()) {
            List<Expr> inGroup = new ArrayList<>();
            collectAggregates(e, inGroup);
            if (!inGroup.isEmpty()) {
                error(e.pos(), "GROUP BY cannot use the aggregate " + name(inGroup.get(0)), "Group by fields only");
            }
        }
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
        if (types.size() > 1) {
            error(null, "The query mixes " + types.stream().map(BqlTranslator::describe).collect(Collectors.joining(" and "))
                        + "; a BQL query is one of them",
                  "Keep one: SELECT fields, SELECT *, SELECT DISTINCT, GROUP BY with COUNT/SUM/AVG/MIN/MAX, "
                  + "COUNT(DISTINCT ...), a distribution, or TOP(...)");
            return null;
        }
        if (q.having() != null && q.groupBy().isEmpty()) {
            error(q.having().pos(), "HAVING needs GROUP BY", "Add GROUP BY, or move the condition into WHERE");
        }
        if (q.limit() != null && q.limit() <= 0) {
            error(q.limitPos(), "LIMIT must be positive, got " + q.limit(), "Give LIMIT 1 or more, or leave it out");
        }
        if (q.duration() != null && q.duration() <= 0) {
            error(null, "The STREAM duration must be positive, got " + q.duration(), "Write STREAM(30000, TIME) or STREAM()");
        }
        Type type = types.isEmpty() ? Type.SELECT : types.iterator().next();
        JsonObject json = new JsonObject();
        JsonArray filters = filters();
        if (filters != null && !filters.isEmpty()) {
            json.add("filters", filters);
        }
        JsonArray post = new JsonArray();
        switch (type) {
            case SELECT -> select(json, post);
            case SELECT_ALL -> selectAll(json, post);
            case SELECT_DISTINCT -> selectDistinct(json, post);
            case GROUP -> {
                if (isSpecialK(aggregates)) {
                    specialK(json, aggregates);
                } else {
                    group(json, post, aggregates);
                }
            }
            case COUNT_DISTINCT -> countDistinct(json, post, (CountDistinct) aggregates.get(0), aggregates);
            case DISTRIBUTION -> distribution(json, post, (Distribution) aggregates.get(0), aggregates);
            default -> topK(json, (TopK) aggregates.get(0), aggregates);
        }
        if (!post.isEmpty()) {
            json.add("postAggregations", post);
        }
        JsonObject window = window();
        if (window != null) {
            json.add("window", window);
        }
        if (q.duration() != null) {
            json.addProperty("duration", q.duration());
        }
        return json;
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

    private void collectAggregates(Expr e, List<Expr> out) {
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
        }
    }

    private void sizeFromLimit(JsonObject aggregation) {
        if (q.limit() != null && q.limit() > 0) {
            aggregation.addProperty("size", q.limit());
        }
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

    // ------------------------------------------------------------------------------------- RAW queries

    private void select(JsonObject json, JsonArray post) {
        JsonObject fields = new JsonObject();
        Map<String, String> outputs = new LinkedHashMap<>();
        List<SelectItem> computed = new ArrayList<>();
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            String out = outputName(item);
            if (e instanceof Field f) {
                claim(outputs, out, item.pos());
                String path = path(f);
                if (fields.has(path)) {
                    error(item.pos(), f.name() + " is selected twice", "Select each field once; use one name for it");
                }
                fields.addProperty(path, out);
                outputs.put(out, f.name());
            } else if (isArithmetic(e)) {
                computed.add(item);
            } else {
                unsupportedInSelect(item);
            }
        }
        for (SelectItem item : computed) {
            String out = outputName(item);
            JsonObject expression = computation(item.expr(), outputs, "the SELECT list");
            claim(outputs, out, item.pos());
            if (expression != null) {
                post.add(computationStep(expression, out));
            }
        }
        orderBy(post, outputs.keySet());
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "RAW");
        aggregation.addProperty("size", q.limit() != null && q.limit() > 0 ? q.limit() : DEFAULT_RAW_LIMIT);
        if (fields.size() > 0) {
            JsonObject projection = new JsonObject();
            projection.add("fields", fields);
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

    private void selectAll(JsonObject json, JsonArray post) {
        for (SelectItem item : q.select()) {
            if (item.expr() != null) {
                error(item.pos(), "SELECT * cannot be combined with other columns (" + name(item.expr()) + ")",
                      "Write SELECT * alone for whole records, or list every field you want: SELECT a, b AS x");
            }
        }
        for (BqlAst.SortItem s : q.orderBy()) {
            if (!(strip(s.expr()) instanceof Field)) {
                error(s.expr().pos(), "ORDER BY " + name(s.expr()) + " is not a field", "Order by fields of the records");
            }
        }
        orderBy(post, null);
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "RAW");
        aggregation.addProperty("size", q.limit() != null && q.limit() > 0 ? q.limit() : DEFAULT_RAW_LIMIT);
        json.add("aggregation", aggregation);
    }

    private void selectDistinct(JsonObject json, JsonArray post) {
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
        orderBy(post, outputs.keySet());
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "GROUP");
        sizeFromLimit(aggregation);
        aggregation.add("fields", fields);
        json.add("aggregation", aggregation);
    }

    private void unsupportedInSelect(SelectItem item) {
        Expr e = strip(item.expr());
        if (e instanceof Unsupported u) {
            error(u.pos(), u.what() + " is not supported", u.resolution());
        } else {
            error(item.pos(), "selecting " + name(item.expr()) + " is not supported",
                  "Select fields (a, a.b, a[0], a['k']) or arithmetic (+ - * /) over selected columns");
        }
    }

    // ------------------------------------------------------------------------------------ aggregations

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

    private boolean isSpecialK(List<Expr> aggregates) {
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
        BqlAst.SortItem sort = q.orderBy().get(0);
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
    private void specialK(JsonObject json, List<Expr> aggregates) {
        Aggregate count = (Aggregate) aggregates.get(0);
        JsonObject fields = new JsonObject();
        Map<String, String> outputs = new LinkedHashMap<>();
        for (Expr g : q.groupBy()) {
            if (!(strip(g) instanceof Field f)) {
                error(g.pos(), "GROUP BY " + name(g) + " is not a field", "Group by fields: a, a.b, a[0], a['k']");
                continue;
            }
            String out = aliasOf(f);
            fields.addProperty(path(f), out);
            outputs.put(out, out);
        }
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

    private void group(JsonObject json, JsonArray post, List<Expr> aggregates) {
        JsonObject fields = new JsonObject();
        Map<String, String> columns = new LinkedHashMap<>();
        for (Expr g : q.groupBy()) {
            Expr e = strip(g);
            if (!(e instanceof Field f)) {
                error(g.pos(), "GROUP BY " + name(g) + " is not supported: only fields", "Group by fields: a, a.b, a[0], a['k']");
                continue;
            }
            String out = aliasOf(f);
            if (columns.containsKey(out)) {
                error(g.pos(), "two columns are named " + out, "Give one of them another name with AS");
            }
            fields.addProperty(path(f), out);
            columns.put(out, f.name());
        }
        JsonArray operations = new JsonArray();
        for (Expr a : aggregates) {
            Aggregate agg = (Aggregate) a;
            String out = aliasOf(agg);
            JsonObject op = new JsonObject();
            op.addProperty("type", agg.op());
            if (agg.operand() != null) {
                if (!(strip(agg.operand()) instanceof Field f)) {
                    error(agg.pos(), agg.op() + " of " + name(agg.operand()) + " is not supported: only of a field",
                          "Write " + agg.op() + "(field); compute over the aggregates instead, e.g. SUM(a) + SUM(b)");
                    continue;
                }
                op.addProperty("field", path(f));
            }
            op.addProperty("newName", out);
            if (columns.containsKey(out)) {
                error(agg.pos(), "two columns are named " + out, "Give one of them another name with AS");
            }
            columns.put(out, name(agg));
            operations.add(op);
        }
        Map<String, String> outputs = new LinkedHashMap<>(columns);
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            String out = outputName(item);
            if (columns.containsKey(out) && (e instanceof Field || e instanceof Aggregate)) {
                continue;
            }
            if (e instanceof Field f) {
                error(item.pos(), f.name() + " is selected but neither grouped nor aggregated",
                      "Add " + f.name() + " to GROUP BY, or aggregate it: MIN(" + f.name() + ")");
            } else if (isArithmetic(e)) {
                // computed below, after HAVING
            } else {
                unsupportedInSelect(item);
            }
        }
        if (q.having() != null) {
            JsonObject clause = clause(q.having(), false, columns, "HAVING");
            if (clause != null) {
                JsonObject having = new JsonObject();
                having.addProperty("type", "HAVING");
                having.add("filter", clause);
                post.add(having);
            }
        }
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            if (isArithmetic(e) && !(e instanceof Field) && !(e instanceof Aggregate)) {
                String out = outputName(item);
                JsonObject expression = computation(item.expr(), aggregateColumns(columns), "the SELECT list");
                if (outputs.containsKey(out)) {
                    error(item.pos(), "two columns are named " + out, "Give one of them another name with AS");
                }
                outputs.put(out, out);
                if (expression != null) {
                    post.add(computationStep(expression, out));
                }
            }
        }
        orderBy(post, outputs.keySet());
        Set<String> selected = q.select().stream().map(BqlTranslator::outputName).collect(Collectors.toSet());
        for (Map.Entry<String, String> column : columns.entrySet()) {
            if (!selected.contains(column.getKey())) {
                error(null, column.getValue() + " is grouped or aggregated but not selected: bullet-bql drops such a column "
                            + "after using it, this project keeps every grouped and aggregated column",
                      "Add " + column.getValue() + " to the SELECT list");
            }
        }
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "GROUP");
        sizeFromLimit(aggregation);
        if (fields.size() > 0) {
            aggregation.add("fields", fields);
        }
        if (!operations.isEmpty()) {
            JsonObject attributes = new JsonObject();
            attributes.add("operations", operations);
            aggregation.add("attributes", attributes);
        }
        json.add("aggregation", aggregation);
    }

    /** Columns that computations and HAVING may use: output names, reachable by BQL name or by alias. */
    private static Map<String, String> aggregateColumns(Map<String, String> columns) {
        Map<String, String> byName = new LinkedHashMap<>();
        columns.forEach((out, bqlName) -> {
            byName.put(out, out);
            byName.putIfAbsent(bqlName, out);
        });
        return byName;
    }

    private void countDistinct(JsonObject json, JsonArray post, CountDistinct cd, List<Expr> aggregates) {
        noLimit("COUNT(DISTINCT ...)");
        noOrderBy("COUNT(DISTINCT ...)");
        JsonObject fields = new JsonObject();
        for (Expr e : cd.operands()) {
            if (strip(e) instanceof Field f) {
                fields.addProperty(path(f), f.name());
            } else {
                error(e.pos(), "COUNT(DISTINCT " + name(e) + ") is not supported: only of fields", "Write COUNT(DISTINCT a, b)");
            }
        }
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
                JsonObject expression = computation(item.expr(), aggregateColumns(columns), "the SELECT list");
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

    private void distribution(JsonObject json, JsonArray post, Distribution d, List<Expr> aggregates) {
        for (SelectItem item : q.select()) {
            if (!(strip(item.expr()) instanceof Distribution)) {
                error(item.pos(), "selecting " + name(item.expr()) + " next to a distribution is not supported",
                      "Select the distribution alone");
            }
        }
        JsonObject fields = new JsonObject();
        if (strip(d.operand()) instanceof Field f) {
            fields.addProperty(path(f), f.name());
        } else {
            error(d.operand().pos(), d.type() + " of " + name(d.operand()) + " is not supported: only of a numeric field",
                  "Write " + d.type() + "(field, LINEAR, 11)");
        }
        JsonObject attributes = new JsonObject();
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
        orderBy(post, Set.of("Quantile", "Value", "Probability", "Count", "Range"));
        JsonObject aggregation = new JsonObject();
        aggregation.addProperty("type", "DISTRIBUTION");
        sizeFromLimit(aggregation);
        aggregation.add("fields", fields);
        aggregation.add("attributes", attributes);
        json.add("aggregation", aggregation);
    }

    private void topK(JsonObject json, TopK t, List<Expr> aggregates) {
        noLimit("TOP(...)");
        noOrderBy("TOP(...)");
        JsonObject fields = new JsonObject();
        Set<String> operandNames = new LinkedHashSet<>();
        for (Expr e : t.operands()) {
            if (strip(e) instanceof Field f) {
                fields.addProperty(path(f), aliasOf(f));
                operandNames.add(f.name());
            } else {
                error(e.pos(), "TOP of " + name(e) + " is not supported: only of fields", "Write TOP(10, a, b)");
            }
        }
        for (SelectItem item : q.select()) {
            Expr e = strip(item.expr());
            if (!(e instanceof TopK) && !(e instanceof Field f && operandNames.contains(f.name()))) {
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

    // ---------------------------------------------------------------------------- post-aggregations

    private void orderBy(JsonArray post, Set<String> columns) {
        if (q.orderBy().isEmpty()) {
            return;
        }
        List<JsonObject> steps = new ArrayList<>();
        for (BqlAst.SortItem s : q.orderBy()) {
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

    private static JsonObject computationStep(JsonObject expression, String name) {
        JsonObject step = new JsonObject();
        step.addProperty("type", "COMPUTATION");
        step.add("expression", expression);
        step.addProperty("newName", name);
        return step;
    }

    private static boolean isArithmetic(Expr e) {
        e = strip(e);
        if (e instanceof Binary b) {
            return Set.of("+", "-", "*", "/").contains(b.op()) && isArithmetic(b.left()) && isArithmetic(b.right());
        }
        return e instanceof Field || e instanceof Aggregate || e instanceof CountDistinct
               || e instanceof Literal l && l.value() instanceof Number;
    }

    /** The COMPUTATION expression of arithmetic over result columns ({@code columns}: usable name → column). */
    private JsonObject computation(Expr e, Map<String, String> columns, String where) {
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

    // ------------------------------------------------------------------------------------------ window

    private JsonObject window() {
        BqlAst.Window w = q.window();
        if (w == null) {
            return null;
        }
        JsonObject emit = new JsonObject();
        emit.addProperty("type", w.emitUnit());
        emit.addProperty("every", w.every());
        JsonObject include = new JsonObject();
        if (w.includeUnit() == null) {
            include.addProperty("type", w.emitUnit());
            include.addProperty("first", w.every());
        } else {
            include.addProperty("type", w.includeUnit());
            if (w.first() != null) {
                include.addProperty("first", w.first());
            }
        }
        JsonObject window = new JsonObject();
        window.add("emit", emit);
        window.add("include", include);
        return window;
    }

    // ----------------------------------------------------------------------------------------- filters

    private JsonArray filters() {
        if (q.where() == null) {
            return null;
        }
        JsonArray filters = new JsonArray();
        List<Expr> conjuncts = new ArrayList<>();
        flattenAnd(q.where(), conjuncts);
        for (Expr e : conjuncts) {
            JsonObject c = clause(e, false, null, "WHERE");
            if (c != null && c.has("clauses") && c.get("operation").getAsString().equals("AND")) {
                c.getAsJsonArray("clauses").forEach(filters::add);
            } else if (c != null) {
                filters.add(c);
            }
        }
        return filters;
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        Expr s = strip(e);
        if (s instanceof Binary b && b.op().equals("AND")) {
            flattenAnd(b.left(), out);
            flattenAnd(b.right(), out);
        } else {
            out.add(s);
        }
    }

    /**
     * The clause for a condition, negated when {@code negate}. {@code columns} maps usable names to result columns
     * (HAVING), or is null for record fields (WHERE). Null when it cannot be expressed (an error is recorded).
     */
    private JsonObject clause(Expr e, boolean negate, Map<String, String> columns, String where) {
        e = strip(e);
        if (e instanceof Binary b && (b.op().equals("AND") || b.op().equals("OR"))) {
            boolean and = b.op().equals("AND") != negate;
            JsonObject left = clause(b.left(), negate, columns, where);
            JsonObject right = clause(b.right(), negate, columns, where);
            if (left == null || right == null) {
                return null;
            }
            JsonArray clauses = new JsonArray();
            clauses.add(left);
            clauses.add(right);
            JsonObject o = new JsonObject();
            o.addProperty("operation", and ? "AND" : "OR");
            o.add("clauses", clauses);
            return o;
        }
        if (e instanceof Unary u && u.op().equals("NOT")) {
            return clause(u.operand(), !negate, columns, where);
        }
        if (e instanceof IsNull n) {
            String field = operandField(n.operand(), columns, where);
            if (field == null) {
                return null;
            }
            return relational(field, n.not() != negate ? "!=" : "==", nullValues());
        }
        if (e instanceof Binary b && Set.of("=", "!=", "<", "<=", ">", ">=").contains(b.op())) {
            return comparison(b, negate, columns, where);
        }
        if (e instanceof Binary b && b.op().equals("IN")) {
            String field = operandField(b.left(), columns, where);
            JsonArray values = literalList(b.right(), where, "IN");
            if (field == null || values == null) {
                return null;
            }
            return relational(field, b.not() != negate ? "!=" : "==", values);
        }
        if (e instanceof Binary b && b.op().equals("RLIKE")) {
            String field = operandField(b.left(), columns, where);
            Expr right = strip(b.right());
            JsonArray values = b.modifier() != null ? literalList(right, where, "RLIKE ANY")
                    : right instanceof Literal l && l.value() instanceof String ? single(l.value().toString()) : null;
            if (values == null && b.modifier() == null) {
                error(b.right().pos(), "RLIKE takes a pattern in single quotes, got " + name(b.right()),
                      "Write field RLIKE '.*text.*'");
            }
            if (field == null || values == null) {
                return null;
            }
            return negatable(field, relational(field, "RLIKE", values), b.not() != negate);
        }
        if (e instanceof Call c && Set.of("SIZEIS", "CONTAINSKEY", "CONTAINSVALUE").contains(c.function())) {
            String field = operandField(c.args().get(0), columns, where);
            Expr arg = strip(c.args().get(1));
            if (!(arg instanceof Literal l) || l.value() == null) {
                error(arg.pos(), c.function() + " takes a literal as its second argument, got " + name(arg),
                      "Write " + c.function() + "(field, " + (c.function().equals("SIZEIS") ? "3" : "'key'") + ")");
                return null;
            }
            if (field == null) {
                return null;
            }
            return negatable(field, relational(field, c.function(), single(literalText(l))), negate);
        }
        if (e instanceof Unsupported u) {
            error(u.pos(), u.what() + " is not supported", u.resolution());
            return null;
        }
        if (e instanceof Binary b && b.op().equals("XOR")) {
            error(b.pos(), "XOR is not supported", "Write (a AND NOT b) OR (NOT a AND b)");
            return null;
        }
        error(e.pos(), "the condition " + name(e) + " in " + where + " is not supported",
              "Compare a field with a literal or another field (=, !=, <, <=, >, >=), or use IN, RLIKE, IS NULL, "
              + "SIZEOF(field) = n, CONTAINSKEY(field, 'k'), CONTAINSVALUE(field, v), combined with AND, OR, NOT");
        return null;
    }

    private JsonObject comparison(Binary b, boolean negate, Map<String, String> columns, String where) {
        Expr left = strip(b.left());
        Expr right = strip(b.right());
        String op = b.op();
        if (left instanceof Literal && !(right instanceof Literal)) {
            Expr t = left;
            left = right;
            right = t;
            op = switch (op) {
                case "<" -> ">";
                case "<=" -> ">=";
                case ">" -> "<";
                case ">=" -> "<=";
                default -> op;
            };
        }
        if (left instanceof Unary u && u.op().equals("SIZEOF") && (op.equals("=") || op.equals("!=")) && b.modifier() == null) {
            String field = operandField(u.operand(), columns, where);
            if (!(right instanceof Literal l) || !(l.value() instanceof Integer || l.value() instanceof Long)) {
                error(right.pos(), "SIZEOF compares with a whole number, got " + name(right), "Write SIZEOF(field) = 3");
                return null;
            }
            if (field == null) {
                return null;
            }
            return negatable(field, relational(field, "SIZEIS", single(l.value().toString())), op.equals("!=") != negate);
        }
        if (left instanceof Unary u && u.op().equals("SIZEOF")) {
            error(b.pos(), "SIZEOF(...) " + op + " is not supported, only SIZEOF(field) = n and != n",
                  "Write SIZEOF(field) = 3, or combine several with OR");
            return null;
        }
        String field = operandField(left, columns, where);
        if (field == null) {
            return null;
        }
        JsonArray values;
        if (b.modifier() != null) {
            boolean any = b.modifier().equals("ANY");
            if (!(any && !op.equals("!=") || !any && op.equals("!="))) {
                error(b.pos(), op + " " + b.modifier() + " is not supported",
                      "Use = ANY, <, <=, >, >= ANY (true when one value compares true), or != ALL (equal to none)");
                return null;
            }
            values = literalList(right, where, op + " " + b.modifier());
            if (values == null) {
                return null;
            }
            if (negate) {
                if (!op.equals("=") && !op.equals("!=")) {
                    error(b.pos(), "NOT of " + op + " " + b.modifier() + " is not supported", "Write the opposite comparison with ALL/ANY");
                    return null;
                }
                op = op.equals("=") ? "!=" : "=";
            }
            return relational(field, op.equals("=") ? "==" : op, values);
        }
        if (right instanceof Literal l) {
            if (l.value() == null) {
                error(right.pos(), "comparing with NULL is never true in BQL", "Write " + name(left) + " IS NULL or IS NOT NULL");
                return null;
            }
            values = new JsonArray();
            values.add(typedValue(l));
        } else if (right instanceof BqlAst.Field || columns != null) {
            String other = operandField(right, columns, where);
            if (other == null) {
                return null;
            }
            JsonObject value = new JsonObject();
            value.addProperty("kind", "FIELD");
            value.addProperty("value", other);
            values = new JsonArray();
            values.add(value);
        } else {
            error(right.pos(), "comparing with " + name(right) + " in " + where + " is not supported",
                  "Compare with a literal ('text', 5, 2.5, true) or another field");
            return null;
        }
        if (negate) {
            op = switch (op) {
                case "=" -> "!=";
                case "!=" -> "=";
                case "<" -> ">=";
                case "<=" -> ">";
                case ">" -> "<=";
                default -> "<";
            };
        }
        return relational(field, op.equals("=") ? "==" : op, values);
    }

    /** A record field (WHERE) or a result column (HAVING) used as a clause's field, or null with an error. */
    private String operandField(Expr e, Map<String, String> columns, String where) {
        e = strip(e);
        if (columns != null) {
            String column = aggregateColumns(columns).get(name(e));
            if (column == null) {
                for (SelectItem item : q.select()) {
                    if (item.alias() != null && item.alias().equals(name(e)) && columns.containsKey(item.alias())) {
                        column = item.alias();
                    }
                }
            }
            if (column == null) {
                error(e.pos(), name(e) + " in " + where + " is not a grouped field or an aggregate of the query",
                      "Use a GROUP BY field or an aggregate, e.g. HAVING COUNT(*) > 10");
            }
            return column;
        }
        if (e instanceof Field f) {
            return path(f);
        }
        if (e instanceof Unsupported u) {
            error(u.pos(), u.what() + " is not supported", u.resolution());
            return null;
        }
        error(e.pos(), name(e) + " in " + where + " is not a field: the model compares fields with values",
              "Compare a field (a, a.b, a[0], a['k']) with a literal or another field; arithmetic is not supported in "
              + where);
        return null;
    }

    private JsonArray literalList(Expr e, String where, String what) {
        e = strip(e);
        List<Expr> items = e instanceof ListExpr l ? l.items() : e instanceof Literal ? List.of(e) : null;
        if (items == null || items.isEmpty()) {
            error(e.pos(), what + " needs a list of literals, got " + name(e), "Write " + what + " ('a', 'b') or [1, 2]");
            return null;
        }
        JsonArray values = new JsonArray();
        for (Expr item : items) {
            Expr s = strip(item);
            if (!(s instanceof Literal l) || l.value() == null) {
                error(item.pos(), what + " takes literals other than NULL, got " + name(item),
                      "List literal values; test for null with IS NULL");
                return null;
            }
            values.add(typedValue(l));
        }
        return values;
    }

    /**
     * A literal as a filter value: a string stays a plain value (cast to the field's type, SPEC §6.2); a number or
     * boolean carries its type, so that, as in BQL, {@code id > 5} is not true of {@code id = "a"} by comparing
     * strings.
     */
    private static com.google.gson.JsonElement typedValue(Literal l) {
        Object v = l.value();
        if (v instanceof String s) {
            return new com.google.gson.JsonPrimitive(s);
        }
        JsonObject value = new JsonObject();
        value.addProperty("kind", "VALUE");
        value.addProperty("value", v.toString());
        value.addProperty("type", v instanceof Boolean ? "BOOLEAN" : v instanceof Integer || v instanceof Long ? "LONG" : "DOUBLE");
        return value;
    }

    private static String literalText(Literal l) {
        return l.value().toString();
    }

    private static JsonArray single(String value) {
        JsonArray a = new JsonArray();
        a.add(value);
        return a;
    }

    private static JsonArray nullValues() {
        JsonArray a = new JsonArray();
        a.add(JsonNull.INSTANCE);
        return a;
    }

    private static JsonObject relational(String field, String op, JsonArray values) {
        JsonObject o = new JsonObject();
        o.addProperty("field", field);
        o.addProperty("operation", op);
        o.add("values", values);
        return o;
    }

    /**
     * A clause, or its null-safe negation: in BQL the test of a missing or null field is unknown, and so is its
     * NOT; the model's NOT would make it true, so the negation also requires the field to be present.
     */
    private static JsonObject negatable(String field, JsonObject clause, boolean negate) {
        if (!negate) {
            return clause;
        }
        JsonObject not = new JsonObject();
        not.addProperty("operation", "NOT");
        JsonArray inner = new JsonArray();
        inner.add(clause);
        not.add("clauses", inner);
        JsonArray both = new JsonArray();
        both.add(relational(field, "!=", nullValues()));
        both.add(not);
        JsonObject and = new JsonObject();
        and.addProperty("operation", "AND");
        and.add("clauses", both);
        return and;
    }

}
