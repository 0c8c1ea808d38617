package dev.bullet.query.expr;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.bullet.common.Limits;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExprParserTest {
    private static final Limits LIMITS = Limits.defaults();

    private static Expr parse(String json) {
        ExprParser.Result result = ExprParser.parse(json, LIMITS);
        assertTrue(result.ok(), () -> json + ": " + result.errors());
        return result.expr();
    }

    @Test
    void everyNodeKindRoundTrips() {
        Expr expr = NAryExpr.of(Op.IF, List.of(
                BinaryExpr.of(Op.GREATER_THAN_ANY, FieldExpr.of("a"), ListExpr.of(List.of(ValueExpr.of(1), ValueExpr.of(2L)))),
                CastExpr.of(FieldExpr.of("m", "k", null), ExprType.DOUBLE),
                BinaryExpr.of(Op.OR, UnaryExpr.of(Op.SIZE_OF, FieldExpr.of("l", 0, FieldExpr.of("k")).withType(ExprType.LONG)),
                BinaryExpr.of(Op.REGEX_LIKE, FieldExpr.of("s", FieldExpr.of("i"), "x"), ValueExpr.of("a.*")))));
        String json = ExprJson.write(expr);
        assertEquals(expr, parse(json));
        assertEquals(json, ExprJson.write(parse(json)));
        for (Object v : new Object[] {null, "x", true, 5, 5L, 1.5f, 2.5, Double.NaN, Double.NEGATIVE_INFINITY, Float.NaN,
            Long.MAX_VALUE, Integer.MIN_VALUE}) {
            ValueExpr value = ValueExpr.of(v);
            assertEquals(value, parse(ExprJson.write(value)), ExprJson.write(value));
        }
    }

    @Test
    void examplesOfTheJsonForm() {
        assertEquals(FieldExpr.of("a"), parse("{\"field\":\"a\"}"));
        assertEquals(FieldExpr.of("l", 0, "k"), parse("{\"field\":\"l\",\"key\":0,\"subKey\":\"k\"}"));
        assertEquals(ValueExpr.of(5), parse("{\"value\":5,\"type\":\"INTEGER\"}"));
        assertEquals(ValueExpr.of(5), parse("{\"value\":5}"));
        assertEquals(ValueExpr.of(5_000_000_000L), parse("{\"value\":5000000000}"));
        assertEquals(ValueExpr.of(5.0), parse("{\"value\":5,\"type\":\"DOUBLE\"}"));
        assertEquals(BinaryExpr.of(Op.ADD, FieldExpr.of("a"), ValueExpr.of(5)),
                parse("{\"op\":\"+\",\"left\":{\"field\":\"a\"},\"right\":{\"value\":5,\"type\":\"INTEGER\"}}"));
        assertEquals(BinaryExpr.of(Op.EQUALS_ANY, FieldExpr.of("a"), FieldExpr.of("b")),
                parse("{\"op\":\"EQUALS_ANY\",\"left\":{\"field\":\"a\"},\"right\":{\"field\":\"b\"}}"));
        assertEquals(UnaryExpr.of(Op.IS_NULL, FieldExpr.of("a")), parse("{\"op\":\"IS NULL\",\"operand\":{\"field\":\"a\"}}"));
        assertEquals(CastExpr.of(FieldExpr.of("a"), ExprType.DOUBLE), parse("{\"cast\":{\"field\":\"a\"},\"type\":\"DOUBLE\"}"));
        assertEquals(NAryExpr.of(Op.UNIX_TIMESTAMP, List.of()), parse("{\"op\":\"UNIXTIMESTAMP\",\"operands\":[]}"));
    }

    @Test
    void staticTypes() {
        assertEquals(ExprType.LONG, parse("{\"op\":\"+\",\"left\":{\"value\":1},\"right\":{\"value\":2,\"type\":\"LONG\"}}").type());
        assertEquals(ExprType.UNKNOWN, parse("{\"op\":\"+\",\"left\":{\"field\":\"a\"},\"right\":{\"value\":2}}").type());
        assertEquals(ExprType.BOOLEAN, parse("{\"op\":\"=\",\"left\":{\"field\":\"a\"},\"right\":{\"value\":2}}").type());
        assertEquals(ExprType.INTEGER_LIST, parse("{\"list\":[{\"value\":1},{\"value\":2}]}").type());
        assertEquals(ExprType.STRING, parse("{\"op\":\"TRIM\",\"operand\":{\"field\":\"a\"}}").type());
    }

    @Test
    void everyProblemIsReported() {
        ExprParser.Result result = ExprParser.parse("{\"op\":\"IF\",\"operands\":[{\"field\":\"\"},{\"value\":\"x\",\"type\":\"INTEGER\"},"
                + "{\"cast\":{\"field\":\"a\"},\"type\":\"UNKNOWN\"},{\"op\":\"NOPE\",\"left\":{\"field\":\"a\"}}]}", LIMITS);
        assertFalse(result.ok());
        assertNull(result.expr());
        assertEquals(4, result.errors().size(), result.errors().toString());
        assertTrue(result.errors().stream().allMatch(e -> !e.resolutions().isEmpty()));
        assertEquals(1, ExprParser.parse("{\"op\":\"BETWEEN\",\"operands\":[{\"field\":\"a\"}]}", LIMITS).errors().size());
        // bullet-core's IF takes fewer operands too (bullet-bql lets them through when a type is unknown)
        assertTrue(ExprParser.parse("{\"op\":\"IF\",\"operands\":[{\"field\":\"a\"}]}", LIMITS).ok());
        assertEquals(1, ExprParser.parse("{\"op\":\"+\",\"operand\":{\"field\":\"a\"}}", LIMITS).errors().size());
        assertEquals(1, ExprParser.parse("{\"field\":\"a\",\"bogus\":1}", LIMITS).errors().size());
        assertEquals(1, ExprParser.parse("{\"op\":\"RLIKE\",\"left\":{\"field\":\"a\"},\"right\":{\"value\":\"(\"}}", LIMITS).errors().size());
        assertEquals(1, ExprParser.parse("{\"op\":\"RLIKE\",\"left\":{\"field\":\"a\"},\"right\":{\"value\":\"(a)\\\\1\"}}", LIMITS).errors().size());
        assertEquals(1, ExprParser.parse("{\"field\":", LIMITS).errors().size());
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        int depth = 100_000;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            text.append("{\"op\":\"NOT\",\"operand\":");
        }
        text.append("{\"field\":\"a\"}");
        text.append("}".repeat(depth));
        ExprParser.Result result = ExprParser.parse(text.toString(), LIMITS);
        assertFalse(result.ok());
        assertTrue(result.errors().get(0).error().contains("deeper than " + LIMITS.queryDepth()));

        JsonObject tree = new JsonObject();
        tree.addProperty("field", "a");
        for (int i = 0; i < depth; i++) {
            JsonObject parent = new JsonObject();
            parent.addProperty("op", "AND");
            JsonArray operands = new JsonArray();
            operands.add(tree);
            parent.add("operands", operands);
            tree = parent;
        }
        ExprParser.Result fromTree = ExprParser.parse(tree, "filter", 1, LIMITS);
        assertFalse(fromTree.ok());
        assertEquals(1, fromTree.errors().size());

        StringBuilder shallow = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            shallow.append("{\"op\":\"NOT\",\"operand\":");
        }
        shallow.append("{\"field\":\"a\"}").append("}".repeat(20));
        assertEquals(21, parse(shallow.toString()).depth());
    }
}
