package dev.bullet.bql;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.query.expr.BinaryExpr;
import dev.bullet.query.expr.CastExpr;
import dev.bullet.query.expr.Expr;
import dev.bullet.query.expr.ExprJson;
import dev.bullet.query.expr.ExprType;
import dev.bullet.query.expr.FieldExpr;
import dev.bullet.query.expr.ListExpr;
import dev.bullet.query.expr.NAryExpr;
import dev.bullet.query.expr.Op;
import dev.bullet.query.expr.UnaryExpr;
import dev.bullet.query.expr.ValueExpr;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BQL expressions into the expression model: each construct of bullet-bql 1.3.2's grammar gives the Expr that
 * bullet-bql's ExpressionVisitor builds (same operations, same literal types), as a WHERE expression filter and as a
 * computed column with bullet-bql's default name.
 */
class BqlExpressionTest {
    private static FieldExpr f(String name) {
        return FieldExpr.of(name);
    }

    private static ValueExpr v(Object value) {
        return ValueExpr.of(value);
    }

    private static Expr bin(Op op, Expr l, Expr r) {
        return BinaryExpr.of(op, l, r);
    }

    private static JsonObject translate(String bql) {
        Bql.Translation t = Bql.translate(bql);
        assertTrue(t.isValid(), bql + ": " + t.errors());
        return t.query();
    }

    /** The one expression filter of {@code SELECT * FROM STREAM() WHERE <where>}. */
    private static void assertWhere(String where, Expr expected) {
        JsonArray filters = translate("SELECT * FROM STREAM() WHERE " + where).getAsJsonArray("filters");
        assertEquals(1, filters.size(), filters.toString());
        assertEquals(ExprJson.toJson(expected), filters.get(0).getAsJsonObject().get("expression"), where);
    }

    /**
     * A BETWEEN of a field and two whole numbers: the interval's two clauses (typed, as BQL's comparisons), which the
     * index serves, and the exact BETWEEN beside them.
     */
    private static void assertInterval(String where, Expr expected) {
        JsonArray filters = translate("SELECT * FROM STREAM() WHERE " + where).getAsJsonArray("filters");
        assertEquals(3, filters.size(), filters.toString());
        JsonObject lower = filters.get(0).getAsJsonObject();
        JsonObject upper = filters.get(1).getAsJsonObject();
        assertEquals(">=", lower.get("operation").getAsString(), filters.toString());
        assertEquals("<=", upper.get("operation").getAsString(), filters.toString());
        assertEquals("a", lower.get("field").getAsString());
        assertEquals("a", upper.get("field").getAsString());
        assertEquals(ExprJson.toJson(expected), filters.get(2).getAsJsonObject().get("expression"), where);
    }

    /** The one computed column of {@code SELECT <item> FROM STREAM()}: its name and expression. */
    private static void assertSelect(String item, String name, Expr expected) {
        JsonObject projection = translate("SELECT " + item + " FROM STREAM()").getAsJsonObject("projection");
        assertFalse(projection.has("fields"), projection.toString());
        JsonObject computed = projection.getAsJsonObject("computed");
        assertEquals(1, computed.size(), computed.toString());
        assertEquals(ExprJson.toJson(expected), computed.get(name), item + " named " + name + " in " + computed);
    }

    @Test
    void literalsKeepBulletBqlsTypes() {
        assertSelect("5", "5", v(5));
        assertSelect("5L", "5L", v(5L));
        assertSelect("5.0", "5.0", v(5.0));
        assertSelect("5.0f", "5.0f", v(5.0f));
        assertSelect("-5", "-5", v(-5));
        assertSelect("2147483648", "2147483648L", v(2147483648L));
        // the digits decide before the sign: -2147483648 is a LONG in bullet-bql
        assertSelect("-2147483648", "-2147483648L", v(-2147483648L));
        assertSelect("'x'", "'x'", v("x"));
        assertSelect("TRUE", "true", v(true));
        assertSelect("NULL", "NULL", v(null));
        assertSelect("5 AS a", "a", v(5));
        JsonObject now = translate("SELECT NOW AS t FROM STREAM()").getAsJsonObject("projection").getAsJsonObject("computed");
        assertEquals("LONG", now.getAsJsonObject("t").get("type").getAsString());
    }

    @Test
    void arithmeticAndComparisons() {
        assertSelect("abc + 5", "abc + 5", bin(Op.ADD, f("abc"), v(5)));
        assertSelect("a % 2", "a % 2", bin(Op.MOD, f("a"), v(2)));
        assertSelect("a - -2 * b", "a - -2 * b", bin(Op.SUB, f("a"), bin(Op.MUL, v(-2), f("b"))));
        assertSelect("(a + 1) / 2", "(a + 1) / 2", bin(Op.DIV, bin(Op.ADD, f("a"), v(1)), v(2)));
        assertSelect("a > 5", "a > 5", bin(Op.GREATER_THAN, f("a"), v(5)));
        assertWhere("a + 1 > 2", bin(Op.GREATER_THAN, bin(Op.ADD, f("a"), v(1)), v(2)));
        assertWhere("a = NULL", bin(Op.EQUALS, f("a"), v(null)));
        assertWhere("SIZEOF(a) > 2", bin(Op.GREATER_THAN, UnaryExpr.of(Op.SIZE_OF, f("a")), v(2)));
    }

    @Test
    void everyAnyAndAllForm() {
        ListExpr list = ListExpr.of(List.of(v(1), v(2)));
        String[] ops = {"=", "!=", ">", "<", ">=", "<="};
        for (String op : ops) {
            for (String q : List.of("ANY", "ALL")) {
                assertWhere("5 " + op + " " + q + " ccc", bin(Op.named(op + " " + q), v(5), f("ccc")));
                assertWhere("a " + op + " " + q + " [1, 2] XOR b",
                            bin(Op.XOR, bin(Op.named(op + " " + q), f("a"), list), f("b")));
            }
        }
        assertWhere("a = ALL [1, 2]", bin(Op.EQUALS_ALL, f("a"), list));
        assertWhere("a NOT RLIKE ANY ['x', 'y'] XOR b",
                    bin(Op.XOR, bin(Op.NOT_REGEX_LIKE_ANY, f("a"), ListExpr.of(List.of(v("x"), v("y")))), f("b")));
    }

    @Test
    void inBetweenXorAndNullPredicates() {
        assertWhere("'x' IN field", bin(Op.IN, v("x"), f("field")));
        assertWhere("a IN ('x', b)", bin(Op.IN, f("a"), ListExpr.of(List.of(v("x"), f("b")))));
        assertWhere("a NOT IN (b)", bin(Op.NOT_IN, f("a"), ListExpr.of(List.of(f("b")))));
        assertInterval("a BETWEEN (1, 5)", NAryExpr.of(Op.BETWEEN, List.of(f("a"), v(1), v(5))));
        assertWhere("a BETWEEN (1, 5.5)", NAryExpr.of(Op.BETWEEN, List.of(f("a"), v(1), v(5.5))));
        assertWhere("a BETWEEN (1, b)", NAryExpr.of(Op.BETWEEN, List.of(f("a"), v(1), f("b"))));
        // a bound a double cannot hold exactly: BETWEEN's doubles and the clauses' longs could disagree near it
        assertWhere("a BETWEEN (1, 9007199254740992)", NAryExpr.of(Op.BETWEEN, List.of(f("a"), v(1), v(9007199254740992L))));
        assertWhere("a BETWEEN (-9007199254740992, 1)",
                    NAryExpr.of(Op.BETWEEN, List.of(f("a"), v(-9007199254740992L), v(1))));
        assertWhere("a + 1 NOT BETWEEN (b, 5.0)", NAryExpr.of(Op.NOT_BETWEEN, List.of(bin(Op.ADD, f("a"), v(1)), f("b"), v(5.0))));
        assertInterval("BETWEEN(a, 1, 5)", NAryExpr.of(Op.BETWEEN, List.of(f("a"), v(1), v(5))));
        assertWhere("a XOR b", bin(Op.XOR, f("a"), f("b")));
        assertWhere("a", f("a"));
        assertSelect("a IS NOT NULL", "a IS NOT NULL", UnaryExpr.of(Op.IS_NOT_NULL, f("a")));
        assertSelect("NOT a", "NOT a", UnaryExpr.of(Op.NOT, f("a")));
        assertSelect("NOT a = b", "NOT a = b", bin(Op.EQUALS, UnaryExpr.of(Op.NOT, f("a")), f("b")));
    }

    @Test
    void functionsAndCasts() {
        assertSelect("TRIM(c) AS t", "t", UnaryExpr.of(Op.TRIM, f("c")));
        for (String fn : List.of("ABS", "LOWER", "UPPER", "HASH", "SIZEOF")) {
            assertSelect(fn + "(c)", fn + "(c)", UnaryExpr.of(Op.named(fn), f("c")));
        }
        assertSelect("IF(a > 1, 'big', 'small')", "IF(a > 1, 'big', 'small')",
                     NAryExpr.of(Op.IF, List.of(bin(Op.GREATER_THAN, f("a"), v(1)), v("big"), v("small"))));
        assertSelect("SUBSTR(s, 1, 2)", "SUBSTRING(s, 1, 2)", NAryExpr.of(Op.SUBSTRING, List.of(f("s"), v(1), v(2))));
        assertSelect("UNIXTIMESTAMP()", "UNIXTIMESTAMP()", NAryExpr.of(Op.UNIX_TIMESTAMP, List.of()));
        assertSelect("UNIXTIMESTAMP(t, 'yyyy')", "UNIXTIMESTAMP(t, 'yyyy')",
                     NAryExpr.of(Op.UNIX_TIMESTAMP, List.of(f("t"), v("yyyy"))));
        assertSelect("FILTER(l, [true, false])", "FILTER(l, [true, false])",
                     bin(Op.FILTER, f("l"), ListExpr.of(List.of(v(true), v(false)))));
        assertSelect("SIZEIS(l, 2)", "SIZEIS(l, 2)", bin(Op.SIZE_IS, f("l"), v(2)));
        assertSelect("CONTAINSKEY(m, 'k')", "CONTAINSKEY(m, 'k')", bin(Op.CONTAINS_KEY, f("m"), v("k")));
        assertSelect("CONTAINSVALUE(m, 1)", "CONTAINSVALUE(m, 1)", bin(Op.CONTAINS_VALUE, f("m"), v(1)));
        assertSelect("CAST(x AS DOUBLE)", "CAST(x AS DOUBLE)", CastExpr.of(f("x"), ExprType.DOUBLE));
        assertWhere("CAST(a AS LONG) = 1", bin(Op.EQUALS, CastExpr.of(f("a"), ExprType.LONG), v(1)));
    }

    @Test
    void fieldsWithComputedKeys() {
        assertWhere("a[b] = 1", bin(Op.EQUALS, FieldExpr.of("a", f("b"), null), v(1)));
        assertSelect("a[b]", "a[b]", FieldExpr.of("a", f("b"), null));
        assertSelect("a[0][1]", "a[0][1]", FieldExpr.of("a", 0, v(1)));
        assertSelect("a[b].c", "a[b].c", FieldExpr.of("a", f("b"), "c"));
        assertSelect("a['k'][b + 1]", "a['k'][b + 1]", FieldExpr.of("a", "k", bin(Op.ADD, f("b"), v(1))));
        assertSelect("a['x.y']", "a['x.y']", FieldExpr.of("a", "x.y", null));
    }

    @Test
    void whereKeepsClausesForWhatTheyExpressAndExpressionsForTheRest() {
        JsonArray filters = translate("SELECT * FROM STREAM() WHERE a = 1 AND b + 1 > 2 AND c IN ('x', 'y')")
                .getAsJsonArray("filters");
        assertEquals(4, filters.size(), filters.toString());
        assertEquals("a", filters.get(0).getAsJsonObject().get("field").getAsString());
        // a comparison with a number keeps its clause (for the index) and is checked exactly as bullet-core compares
        assertEquals(ExprJson.toJson(bin(Op.EQUALS, f("a"), v(1))), filters.get(1).getAsJsonObject().get("expression"));
        assertEquals(ExprJson.toJson(bin(Op.GREATER_THAN, bin(Op.ADD, f("b"), v(1)), v(2))),
                     filters.get(2).getAsJsonObject().get("expression"));
        assertEquals("c", filters.get(3).getAsJsonObject().get("field").getAsString());
        // an OR mixing an expression with a plain comparison is one expression
        assertWhere("a = 1 OR b + 1 > 2",
                    bin(Op.OR, bin(Op.EQUALS, f("a"), v(1)), bin(Op.GREATER_THAN, bin(Op.ADD, f("b"), v(1)), v(2))));
        // expression filters serve the queries with aggregates too
        JsonObject group = translate("SELECT COUNT(*) FROM STREAM() WHERE ABS(n) > 1");
        assertTrue(group.getAsJsonArray("filters").get(0).getAsJsonObject().has("expression"), group.toString());
    }

    @Test
    void selectMixesFieldsAndComputedColumns() {
        JsonObject q = translate("SELECT id, n + 1 AS next, TRIM(s) FROM STREAM() WHERE n > 1 LIMIT 5");
        assertEquals(JsonParser.parseString("{\"id\":\"id\"}"), q.getAsJsonObject("projection").get("fields"));
        JsonObject computed = q.getAsJsonObject("projection").getAsJsonObject("computed");
        assertEquals(List.of("next", "TRIM(s)"), List.copyOf(computed.keySet()));
        assertFalse(q.has("postAggregations"), q.toString());
        assertEquals(5, q.getAsJsonObject("aggregation").get("size").getAsInt());
    }

    @Test
    void aggregationOperandsThatAreExpressionsAreComputedColumns() {
        JsonObject q = translate("SELECT a + b AS ab, c, SUM(v * 2), COUNT(*) FROM STREAM() GROUP BY a + b, c");
        JsonObject computed = q.getAsJsonObject("projection").getAsJsonObject("computed");
        assertEquals(List.of("a + b", "c", "v * 2"), List.copyOf(computed.keySet()));
        assertFalse(q.getAsJsonObject("projection").has("fields"), q.toString());
        JsonObject aggregation = q.getAsJsonObject("aggregation");
        assertEquals(JsonParser.parseString("{\"a + b\":\"ab\",\"c\":\"c\"}"), aggregation.get("fields"));
        assertEquals(JsonParser.parseString("[{\"type\":\"SUM\",\"field\":\"v * 2\",\"coerce\":true,"
                                            + "\"newName\":\"SUM(v * 2)\"},{\"type\":\"COUNT\",\"newName\":\"COUNT(*)\"}]"),
                     aggregation.getAsJsonObject("attributes").get("operations"));
        JsonObject top = translate("SELECT TOP(10, LOWER(s)) FROM STREAM()");
        assertEquals(List.of("LOWER(s)"), List.copyOf(top.getAsJsonObject("projection").getAsJsonObject("computed").keySet()));
        assertEquals(JsonParser.parseString("{\"LOWER(s)\":\"LOWER(s)\"}"), top.getAsJsonObject("aggregation").get("fields"));
        JsonObject cd = translate("SELECT COUNT(DISTINCT a + 1) FROM STREAM()");
        assertEquals(JsonParser.parseString("{\"a + 1\":\"a + 1\"}"), cd.getAsJsonObject("aggregation").get("fields"));
        JsonObject quantile = translate("SELECT QUANTILE(a / 2, LINEAR, 5) FROM STREAM()");
        assertEquals(JsonParser.parseString("{\"a / 2\":\"a / 2\"}"), quantile.getAsJsonObject("aggregation").get("fields"));
        JsonObject plain = translate("SELECT c, SUM(v) FROM STREAM() GROUP BY c");
        assertFalse(plain.has("projection"), "fields alone are read by path, without a projection: " + plain);
    }

    @Test
    void whatStaysRefused() {
        for (String[] c : new String[][] {
            {"SELECT * FROM STREAM() WHERE COUNT(*) > 1", "WHERE cannot use the aggregate COUNT(*)"},
            {"SELECT * FROM STREAM() WHERE IF(5, 1, 2) = 1", "IF"},
            {"SELECT COUNT(*), b FROM STREAM()", "the field b in the SELECT list is no column of the result"},
            {"SELECT TRIM(a : LONG) FROM STREAM()", "the argument of TRIM(a) cannot be LONG"},
        }) {
            Bql.Translation t = Bql.translate(c[0]);
            assertFalse(t.isValid(), c[0]);
            assertTrue(t.errors().stream().anyMatch(e -> e.error().contains(c[1])), c[0] + ": " + t.errors());
        }
    }
}
