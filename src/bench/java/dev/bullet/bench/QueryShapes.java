package dev.bullet.bench;

import dev.bullet.common.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * What one query of a given shape costs the engine per record: for each shape, a set of 1,000 queries — 100 of the
 * shape (drawn over the generator's fields, with values of its vocabulary) and 900 of the {@code ==} reference
 * ({@code id == absent-N}) — to compare with the reference's 1,000 in one JVM ({@code bench-ab.sh --base HEAD
 * --queries-file SHAPE.jsonl --base-queries-file id.jsonl}): the difference in CPU per record over 100 is one
 * query's cost per record. Finds the forms the index does not decide (tested on every record they may match) and the
 * aggregations that meet every record.
 */
public final class QueryShapes {
    /** Common values of the generator's two-letter fields (each about one record in ten to a hundred). */
    private static final String[] COMMON = {"ba", "bi", "ci", "ce", "be", "bo", "bu", "ca", "cu", "di"};
    private static final String COUNT = "{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}";
    private static final String RAW = "{\"type\":\"RAW\",\"size\":10}";
    private static final int SHAPED = 100;
    private static final int QUERIES = 1_000;

    private final SplittableRandom random;

    private QueryShapes(long seed) {
        this.random = new SplittableRandom(seed);
    }

    @Command(name = "QueryShapes", sortOptions = false,
             description = {"Writes, for each query shape, DIR/SHAPE.jsonl (100 queries of the shape and 900 of the",
                            "== reference) and DIR/id.jsonl (the reference's 1,000).", ""})
    static final class Options {
        @Option(names = "--out", paramLabel = "DIR", required = true, description = "the directory to write to")
        String out;
        @Option(names = "--seed", paramLabel = "N", description = "the draw's seed (default 5)")
        long seed = 5;
        @Option(names = "--shape", paramLabel = "NAME", description = "only these shapes (repeatable; default: all)")
        List<String> shapes;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
    }

    public static void main(String[] args) throws IOException {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        Path dir = Path.of(o.out);
        Files.createDirectories(dir);
        RealisticQueries.writeLines(reference(), dir.resolve("id.jsonl").toString());
        for (Map.Entry<String, List<String>> set : sets(o.seed).entrySet()) {
            if (o.shapes == null || o.shapes.contains(set.getKey())) {
                RealisticQueries.writeLines(set.getValue(), dir.resolve(set.getKey() + ".jsonl").toString());
            }
        }
    }

    /** Each shape's set of 1,000 queries (100 of the shape, then the reference's last 900), by shape name. */
    static Map<String, List<String>> sets(long seed) {
        List<String> reference = reference();
        Map<String, List<String>> sets = new LinkedHashMap<>();
        for (Map.Entry<String, IntFunction<String>> shape : new QueryShapes(seed).shapes().entrySet()) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < SHAPED; i++) {
                lines.add(shape.getValue().apply(i));
            }
            lines.addAll(reference.subList(SHAPED, QUERIES));
            sets.put(shape.getKey(), lines);
        }
        return sets;
    }

    /** The {@code id} mix's 1,000 queries. */
    static List<String> reference() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < QUERIES; i++) {
            lines.add(query(clause("id", "==", "\"absent-" + i + "\""), "{\"type\":\"RAW\",\"size\":1}"));
        }
        return lines;
    }

    private Map<String, IntFunction<String>> shapes() {
        Map<String, IntFunction<String>> s = new LinkedHashMap<>();
        s.put("eq-absent", i -> query(clause(string(), "==", quoted("zz" + i)), RAW));
        s.put("eq-common", i -> query(clause(string(), "==", quoted(common())), RAW));
        s.put("eq-nested-absent", i -> query(clause(map() + ".k1", "==", quoted("zz" + i)), RAW));
        s.put("neq-count", i -> query(clause(string(), "!=", quoted("zz" + i)), COUNT));
        s.put("neq-null-count", i -> query(clause(string(), "!=", "null"), COUNT));
        s.put("not-or-count", i -> query(logical("NOT", logical("OR", clause(string(), "==", quoted(common())),
                                                                 clause(string(), "==", quoted(common())))), COUNT));
        s.put("and-neq-count", i -> query(clause(string(), "!=", quoted(common())) + ","
                                          + clause(string(), "!=", quoted(common())), COUNT));
        s.put("field-eq", i -> query("{\"field\":\"" + string() + "\",\"operation\":\"==\",\"values\":[{\"kind\":"
                                     + "\"FIELD\",\"value\":\"" + string() + "\"}]}", RAW));
        s.put("string-gt", i -> query(clause(string(), ">", quoted("zzzz" + i)), RAW));
        s.put("gt-rare", i -> query(clause(number(), ">", quoted(String.valueOf(1_000_000_000 + i))), RAW));
        s.put("interval-count", i -> query(clause("l_1", ">", quoted(String.valueOf(random.nextInt(20_000)))) + ","
                                           + clause("l_1", "<", quoted(String.valueOf(20_000 + random.nextInt(30_000)))),
                                           COUNT));
        s.put("rlike-nested", i -> query(clause(map() + ".k0", "RLIKE", quoted(".*zq" + i + ".*")), RAW));
        s.put("containsvalue-map", i -> query(clause(map(), "CONTAINSVALUE", quoted("vq" + i)), RAW));
        s.put("sizeis-map-count", i -> query(clause(map(), "SIZEIS", quoted(String.valueOf(1 + random.nextInt(4)))),
                                             COUNT));
        s.put("group-all-count", i -> query("", "{\"type\":\"GROUP\",\"size\":50,\"fields\":{\"" + string()
                                                + "\":\"a\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}"));
        s.put("group-all-sum", i -> query("", "{\"type\":\"GROUP\",\"size\":50,\"fields\":{\"" + string()
                                              + "\":\"a\"},\"attributes\":{\"operations\":[{\"type\":\"SUM\",\"field\":\""
                                              + number() + "\"}]}}"));
        s.put("group2-common", i -> query(clause(string(), "==", quoted(common())),
                                          "{\"type\":\"GROUP\",\"size\":50,\"fields\":{\"" + string() + "\":\"a\",\""
                                          + string() + "\":\"b\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},"
                                          + "{\"type\":\"SUM\",\"field\":\"l_1\"},{\"type\":\"AVG\",\"field\":\"l_2\"}]}}"));
        s.put("count-distinct-common", i -> query(clause(string(), "==", quoted(common())),
                                                  "{\"type\":\"COUNT DISTINCT\",\"fields\":{\"" + string() + "\":\"a\",\""
                                                  + string() + "\":\"b\"}}"));
        s.put("top-k-common", i -> query(clause(string(), "==", quoted(common())),
                                         "{\"type\":\"TOP K\",\"size\":5,\"fields\":{\"" + string()
                                         + "\":\"a\"},\"attributes\":{\"threshold\":3}}"));
        s.put("distribution-common", i -> query(clause(string(), "==", quoted(common())),
                                                "{\"type\":\"DISTRIBUTION\",\"fields\":{\"l_1\":\"l_1\"},\"attributes\":"
                                                + "{\"type\":\"PMF\",\"numberOfPoints\":50}}"));
        return s;
    }

    private String string() {
        return String.format(Locale.ROOT, "s_%02d", random.nextInt(62));
    }

    private String map() {
        return String.format(Locale.ROOT, "m_%02d", random.nextInt(23));
    }

    private String number() {
        return "l_" + random.nextInt(4);
    }

    private String common() {
        return COMMON[random.nextInt(COMMON.length)];
    }

    private static String quoted(String text) {
        return "\"" + text + "\"";
    }

    private static String clause(String field, String op, String value) {
        return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[" + value + "]}";
    }

    private static String logical(String op, String... clauses) {
        return "{\"operation\":\"" + op + "\",\"clauses\":[" + String.join(",", clauses) + "]}";
    }

    private static String query(String filters, String aggregation) {
        return "{\"filters\":[" + filters + "],\"aggregation\":" + aggregation + ",\"duration\":86400000}";
    }
}
