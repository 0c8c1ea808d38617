package dev.bullet.bench;

import dev.bullet.common.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The expression mix: 1,000 queries over the seed-shaped records whose filters and projections need expressions
 * (arithmetic, functions, casts) beside ordinary clauses, in the JSON form BQL's computed columns and expression
 * filters become. The checked-in {@code src/test/resources/dev/bullet/bench/expression-queries.jsonl} is its output.
 */
public final class ExpressionQueries {
    private static final String[] NATO = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
    private static final String[] SYLLABLES = {"ba", "be", "bo", "bu", "co", "de", "du", "fe", "hi", "ro", "we", "wu"};

    private final Random random = new Random(35);

    @Command(name = "ExpressionQueries", sortOptions = false,
             description = {"Writes the expression mix (1,000 JSON queries, one per line) to FILE, or to stdout.", ""})
    static final class Options {
        @Parameters(arity = "0..1", paramLabel = "FILE", description = "where to write the queries (default: stdout)")
        String file;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
    }

    public static void main(String[] args) throws IOException {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        RealisticQueries.writeLines(new ExpressionQueries().generate(), o.file);
    }

    /** The 1,000 queries, in a fixed shuffled order. */
    List<String> generate() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 300; i++) { // an equality the index decides, then arithmetic on its candidates
            out.add(raw(eq("s_00", NATO[random.nextInt(NATO.length)]) + "," + expression(gt(plus(field("l_0"),
                    field("l_2")), longValue(500 + random.nextInt(500)))), true));
        }
        for (int i = 0; i < 200; i++) { // a function of a string on every record
            out.add(raw(expression(eqExpr(unary("LOWER", field("s_0" + (1 + random.nextInt(8)))),
                    stringValue(SYLLABLES[random.nextInt(SYLLABLES.length)]))), random.nextBoolean()));
        }
        for (int i = 0; i < 200; i++) { // a range the index narrows by, then a comparison of two fields
            out.add(raw(clause("l_1", ">=", String.valueOf(90_000 + random.nextInt(9_000))) + ","
                        + expression(gt(times(field("l_0"), longValue(2 + random.nextInt(5))), field("l_2"))), true));
        }
        for (int i = 0; i < 150; i++) { // a dashboard over an expression filter
            out.add("{\"filters\":[" + expression(eqExpr(mod(field("l_2"), longValue(10)), longValue(random.nextInt(10))))
                    + "],\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"s_01\":\"word\"},\"attributes\":"
                    + "{\"operations\":[{\"type\":\"COUNT\"}]}},\"duration\":600000}");
        }
        for (int i = 0; i < 150; i++) { // a cast of a string, over the records of one id (none match)
            out.add(raw(eq("id", Long.toHexString(random.nextLong())) + "," + expression(gt(cast(field("s_04")),
                    longValue(random.nextInt(100)))), true));
        }
        Collections.shuffle(out, random);
        return out;
    }

    private String raw(String filters, boolean computed) {
        String projection = computed ? ",\"projection\":{\"fields\":{\"id\":\"id\"},\"computed\":{\"total\":"
                                       + plus(field("l_0"), field("l_1")) + ",\"word\":" + unary("UPPER", field("s_01"))
                                       + "}}" : "";
        int[] sizes = {1, 10, 50, 100, 500};
        return "{\"filters\":[" + filters + "]" + projection + ",\"aggregation\":{\"type\":\"RAW\",\"size\":"
               + sizes[random.nextInt(sizes.length)] + "},\"duration\":" + (30_000 * (1 + random.nextInt(10))) + "}";
    }

    private static String eq(String field, String value) {
        return clause(field, "==", value);
    }

    private static String clause(String field, String op, String value) {
        return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[\"" + value + "\"]}";
    }

    private static String expression(String e) {
        return "{\"expression\":" + e + "}";
    }

    private static String field(String name) {
        return "{\"field\":\"" + name + "\"}";
    }

    private static String longValue(long v) {
        return "{\"value\":" + v + ",\"type\":\"LONG\"}";
    }

    private static String stringValue(String v) {
        return "{\"value\":\"" + v + "\",\"type\":\"STRING\"}";
    }

    private static String binary(String op, String left, String right) {
        return "{\"op\":\"" + op + "\",\"left\":" + left + ",\"right\":" + right + "}";
    }

    private static String plus(String l, String r) {
        return binary("+", l, r);
    }

    private static String times(String l, String r) {
        return binary("*", l, r);
    }

    private static String mod(String l, String r) {
        return binary("%", l, r);
    }

    private static String gt(String l, String r) {
        return binary(">", l, r);
    }

    private static String eqExpr(String l, String r) {
        return binary("=", l, r);
    }

    private static String unary(String op, String operand) {
        return "{\"op\":\"" + op + "\",\"operand\":" + operand + "}";
    }

    private static String cast(String operand) {
        return "{\"cast\":" + operand + ",\"type\":\"DOUBLE\"}";
    }
}
