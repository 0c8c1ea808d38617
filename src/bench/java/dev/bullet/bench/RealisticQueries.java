package dev.bullet.bench;

import dev.bullet.common.Cli;
import dev.bullet.generator.RecordGenerator;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The {@code realistic} query mix of E1 (docs/PERFORMANCE.md): 1,000 queries over the generator's records, drawn
 * deterministically from a fixed seed and from values of sample records, so some queries match and results flow.
 * About 35 % {@code ==}/IN on top-level and nested fields, 15 % numeric ranges, 15 % RLIKE log-search patterns,
 * 10 % {@code !=}/NOT, 5 % CONTAINSKEY/CONTAINSVALUE/SIZEIS, 15 % GROUP/COUNT DISTINCT/TOP K/DISTRIBUTION with such
 * filters (two dashboards opened by many people among them) and 5 % ANDs/ORs of these. The checked-in file
 * {@code src/test/resources/dev/bullet/bench/realistic-queries.jsonl} is {@code main}'s output
 * ({@code RealisticQueriesTest} keeps them equal).
 */
public final class RealisticQueries {
    static final String RESOURCE = "/dev/bullet/bench/realistic-queries.jsonl";
    private static final long SEED = 1313L;
    private static final String[] NATO = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                                          "india", "juliett"};
    private static final String CONSONANTS = "bcdfghjklmnprstvwxyz";
    private static final String VOWELS = "aeiou";

    private final SplittableRandom random;
    private final List<Record> sample = new ArrayList<>();
    /** Draws a broad mix: two in five queries under a filter most records pass ({@link #broadFilter}). */
    private final boolean broad;

    private RealisticQueries() {
        this(SEED, false);
    }

    /** A mix drawn from {@code seed} (its sample records too); {@code broad}: many queries match most records. */
    private RealisticQueries(long seed, boolean broad) {
        this.random = new SplittableRandom(seed);
        this.broad = broad;
        RecordGenerator generator = new RecordGenerator(seed, () -> 1_700_000_000_000L);
        RecordDecoder decoder = new RecordDecoder();
        for (int i = 0; i < 2_000; i++) {
            sample.add(decoder.decode(generator.next()));
        }
    }

    /** The command line of the generator of the checked-in mix. */
    @Command(name = "RealisticQueries", sortOptions = false,
             description = {"Writes the realistic query mix (1,000 queries, one JSON query per line) to FILE, or to stdout.",
                            "The checked-in src/test/resources" + RESOURCE + " is its output.", ""})
    static final class Options {
        @Option(names = "--rlike", description = "the rlike-realistic queries instead (1,000 distinct RAW RLIKE queries)")
        boolean rlike;
        @Option(names = "--seed", paramLabel = "N", description = {"draw the mix anew from this seed (the queries and the",
                                                                    "sample records their values come from); default: the",
                                                                    "checked-in mix's"})
        Long seed;
        @Option(names = "--broad", description = {"a broad mix: two in five RAW queries and half the aggregations under a",
                                                  "filter most records pass (ranges at a sampled value, negations of",
                                                  "rare values, keys every map has), counts without group fields among",
                                                  "the aggregations"})
        boolean broad;
        @Option(names = "--dashboards", description = {"a dashboards mix instead: 1,000 aggregations (GROUP with and without",
                                                       "fields, COUNT DISTINCT, TOP K, DISTRIBUTION), half of them under",
                                                       "a filter most records pass, 40 of them two dashboards opened by",
                                                       "many; with --seed drawn anew"})
        boolean dashboards;
        @Parameters(arity = "0..1", paramLabel = "FILE", description = "where to write the queries (default: stdout)")
        String file;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
    }

    /** Writes the mix (with {@code --rlike}: the rlike-realistic queries), one query per line, to the file given. */
    public static void main(String[] args) throws IOException {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        if (o.dashboards || o.seed != null || o.broad) {
            writeLines(draw(o.seed != null ? o.seed : SEED, o.broad, o.dashboards), o.file);
            return;
        }
        writeLines(o.rlike ? rlikeOnly() : generate(), o.file);
    }

    /** Writes a query set, one query per line, to {@code file}, or to stdout when it is null. */
    static void writeLines(List<String> queries, String file) throws IOException {
        String text = String.join("\n", queries) + "\n";
        if (file != null) {
            Files.writeString(Path.of(file), text, StandardCharsets.UTF_8);
        } else {
            System.out.print(text);
        }
    }

    /** A mix drawn from {@code seed}, as {@code --seed} with {@code --broad} or {@code --dashboards} writes it. */
    static List<String> draw(long seed, boolean broad, boolean dashboards) {
        return dashboards ? new RealisticQueries(seed, true).dashboards() : new RealisticQueries(seed, broad).all();
    }

    /** The 1,000 queries of the mix, in a fixed shuffled order. */
    static List<String> generate() {
        return new RealisticQueries().all();
    }

    /** 1,000 distinct RAW RLIKE queries with the log-search patterns of the mix (the {@code rlike-realistic} mix). */
    static List<String> rlikeOnly() {
        RealisticQueries generator = new RealisticQueries();
        LinkedHashSet<String> out = new LinkedHashSet<>();
        while (out.size() < 1000) {
            out.add(generator.raw(generator.rlike()));
        }
        return new ArrayList<>(out);
    }

    /** The checked-in mix, from the classpath. */
    static List<String> load() throws IOException {
        try (var in = RealisticQueries.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException("missing resource " + RESOURCE);
            }
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(line);
                }
            }
            return out;
        }
    }

    private List<String> all() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 350; i++) {
            out.add(raw(maybeBroad(equality(), 2)));
        }
        for (int i = 0; i < 150; i++) {
            out.add(raw(maybeBroad(range(), 2)));
        }
        for (int i = 0; i < 150; i++) {
            out.add(raw(maybeBroad(rlike(), 2)));
        }
        for (int i = 0; i < 100; i++) {
            out.add(raw(maybeBroad(negation(), 2)));
        }
        for (int i = 0; i < 50; i++) {
            out.add(raw(maybeBroad(contains(), 2)));
        }
        String dashboard = "{\"filters\":[" + eq("s_00", "charlie") + "],\"aggregation\":{\"type\":\"GROUP\",\"fields\":"
                           + "{\"s_01\":\"word\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"AVG\","
                           + "\"field\":\"l_1\"}]}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":5000},\"include\":"
                           + "{\"type\":\"TIME\",\"every\":5000}},\"duration\":600000}";
        String topErrors = "{\"filters\":[" + rlikeClause("m_02.k0", ".*(ba|be|bi).*") + "],\"aggregation\":{\"type\":"
                           + "\"TOP K\",\"size\":10,\"fields\":{\"m_02.k0\":\"code\"}},\"duration\":600000}";
        for (int i = 0; i < 30; i++) {
            out.add(dashboard);
        }
        for (int i = 0; i < 10; i++) {
            out.add(topErrors);
        }
        for (int i = 0; i < 110; i++) {
            out.add(aggregation());
        }
        for (int i = 0; i < 50; i++) {
            out.add(raw(maybeBroad(compound(), 2)));
        }
        for (int i = out.size() - 1; i > 0; i--) {
            Collections.swap(out, i, random.nextInt(i + 1));
        }
        return out;
    }

    /** The dashboards mix: aggregations only, drawn as a broad mix's, with two dashboards opened by many. */
    private List<String> dashboards() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 960; i++) {
            out.add(aggregation());
        }
        String byKind = "{\"filters\":[" + broadFilter() + "],\"aggregation\":{\"type\":\"GROUP\",\"fields\":"
                        + "{\"" + stringField(0, 1) + "\":\"kind\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},"
                        + "{\"type\":\"AVG\",\"field\":\"l_1\"}]}},\"duration\":600000}";
        String topValues = "{\"filters\":[" + broadFilter() + "],\"aggregation\":{\"type\":\"TOP K\",\"size\":10,"
                           + "\"fields\":{\"" + stringField(1, 3) + "\":\"v\"}},\"duration\":600000}";
        for (int i = 0; i < 30; i++) {
            out.add(byKind);
        }
        for (int i = 0; i < 10; i++) {
            out.add(topValues);
        }
        for (int i = out.size() - 1; i > 0; i--) {
            Collections.swap(out, i, random.nextInt(i + 1));
        }
        return out;
    }

    private String raw(String filter) {
        int[] sizes = {1, 10, 10, 50, 100, 500};
        String projection = random.nextInt(2) == 0 ? ""
                : ",\"projection\":{\"fields\":{\"id\":\"id\",\"timestamp\":\"ts\",\"s_00\":\"kind\",\"l_1\":\"n\"}}";
        return "{\"filters\":[" + filter + "]" + projection + ",\"aggregation\":{\"type\":\"RAW\",\"size\":"
               + sizes[random.nextInt(sizes.length)] + "},\"duration\":" + (30_000 * (1 + random.nextInt(10))) + "}";
    }

    private String aggregation() {
        String filter;
        switch (random.nextInt(14)) {
            case 0:
            case 7:
            case 8:
                filter = equality();
                break;
            case 9:
            case 10:
                filter = rlike();
                break;
            case 11:
            case 12:
                filter = range();
                break;
            case 6:
                filter = broadNegation();
                break;
            case 1:
                filter = range();
                break;
            case 2:
                filter = rlike();
                break;
            case 3:
                filter = negation();
                break;
            case 4:
                filter = contains();
                break;
            default:
                filter = compound();
                break;
        }
        String filters = "\"filters\":[" + maybeBroad(filter, broad && random.nextBoolean() ? 5 : 0) + "],";
        if (broad && random.nextInt(4) == 0) {
            // a count, or a count and a sum, without group fields
            return "{" + filters + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":"
                   + "\"COUNT\"}" + (random.nextBoolean() ? "" : ",{\"type\":\"SUM\",\"field\":\"l_0\"}") + "]}},"
                   + "\"duration\":300000}";
        }
        switch (random.nextInt(4)) {
            case 0:
                return "{" + filters + "\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"" + stringField(0, 3)
                       + "\":\"g\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},{\"type\":\"SUM\",\"field\":"
                       + "\"l_0\"}]}},\"duration\":300000}";
            case 1:
                return "{" + filters + "\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"" + stringField(1, 5)
                       + "\":\"v\"}},\"duration\":300000}";
            case 2:
                return "{" + filters + "\"aggregation\":{\"type\":\"TOP K\",\"size\":10,\"fields\":{\""
                       + stringField(1, 4) + "\":\"v\"}},\"duration\":300000}";
            default:
                return "{" + filters + "\"aggregation\":{\"type\":\"DISTRIBUTION\",\"fields\":{\"l_1\":\"v\"},"
                       + "\"attributes\":{\"type\":\"QUANTILE\",\"points\":[0.5,0.9,0.99]}},\"duration\":300000}";
        }
    }

    /** A string field of one of the cardinality tiers lo..hi-1 (0: 10 values ... 3: 10,000, 4: unique tokens). */
    private String stringField(int lo, int hi) {
        int tier = lo + random.nextInt(hi - lo);
        int index = tier + 5 * random.nextInt(12);
        return String.format(Locale.ROOT, "s_%02d", index);
    }

    /** A selective field for == and IN: the id, strings, map and list values of 1,000 or more values. */
    private String equalityField() {
        switch (random.nextInt(8)) {
            case 0:
                return "id";
            case 1:
            case 2:
                return stringField(2, 5);
            case 3:
                return stringField(0, 2);
            case 4:
            case 5:
                return selectiveMapKey();
            case 6:
                while (true) {
                    // lm_i.j.kK has the cardinality of tier (i + j + K) % 4
                    int i = random.nextInt(3);
                    int j = random.nextInt(2);
                    int k = random.nextInt(2);
                    if ((i + j + k) % 4 >= 2) {
                        return "lm_" + i + "." + j + ".k" + k;
                    }
                }
            default:
                return stringField(3, 4);
        }
    }

    /** A map key whose values have 1,000 or 10,000 values: m_NN.kK has tier (NN + K) % 4. */
    private String selectiveMapKey() {
        while (true) {
            int m = random.nextInt(23);
            int k = random.nextInt(1 + m % 4);
            if ((m + k) % 4 >= 2) {
                return String.format(Locale.ROOT, "m_%02d.k%d", m, k);
            }
        }
    }

    private String equality() {
        String field = equalityField();
        int n = random.nextInt(4) == 0 ? 2 + random.nextInt(4) : 1;
        List<String> values = new ArrayList<>();
        boolean lowCardinality = field.matches("s_\\d\\d") && Integer.parseInt(field.substring(2)) % 5 < 2;
        for (int i = 0; i < n; i++) {
            // low-cardinality fields get absent values, so that few queries match every record
            values.add(lowCardinality || random.nextInt(3) == 0 ? absent() : rareValue(field));
        }
        return clause(field, "==", values);
    }

    private String range() {
        switch (random.nextInt(5)) {
            case 0:
                return clause("l_0", random.nextBoolean() ? ">" : ">=", List.of(String.valueOf(995 + random.nextInt(10))));
            case 1:
                return clause("l_1", "<", List.of(String.valueOf(random.nextInt(200))));
            case 2: {
                long lo = random.nextInt(100_000);
                return "{\"operation\":\"AND\",\"clauses\":[" + clause("l_1", ">=", List.of(String.valueOf(lo))) + ","
                       + clause("l_1", "<", List.of(String.valueOf(lo + 50))) + "]}";
            }
            case 3:
                return clause("l_3", "<=", List.of(String.valueOf(-500_000 + random.nextInt(2_000))));
            default:
                return clause("timestamp", ">", List.of(String.valueOf(4_000_000_000_000L + random.nextInt(1000))));
        }
    }

    private String rlike() {
        String field = random.nextInt(4) == 0 ? selectiveMapKey() : stringField(2, 5);
        return rlikeClause(field, pattern(field));
    }

    /** Typical log-search patterns (whole-value match): anchored prefixes, .*word.*, alternations, (?i), classes. */
    private String pattern(String field) {
        String word = sampleValue(field);
        String part = word.length() > 3 ? word.substring(0, 3 + random.nextInt(word.length() - 2)) : word;
        switch (random.nextInt(10)) {
            case 0:
                return part + ".*";
            case 1:
                return ".*" + part + ".*";
            case 2:
                return ".*" + word.substring(word.length() - Math.min(word.length(), 3)) + "$";
            case 3:
                return "(" + word + "|" + sampleValue(field) + "|" + absent() + ")";
            case 4:
                return "(?i)" + word.toUpperCase(Locale.ROOT) + ".*";
            case 5:
                return "(?i).*" + part.toUpperCase(Locale.ROOT) + ".*";
            case 6:
                return "[" + CONSONANTS.charAt(random.nextInt(20)) + word.charAt(0) + "]" + word.substring(1) + ".*";
            case 7:
                return ".*(" + absent() + "|" + part + "x|error)[0-9]*";
            case 8:
                return "^" + absent() + ".*" + CONSONANTS.charAt(random.nextInt(20)) + VOWELS.charAt(random.nextInt(5)) + "$";
            default:
                // no required literal: evaluated on every record
                return random.nextBoolean() ? "[0-9]{2}[a-f]+.*" : "[a-k]{2}[0-9]+";
        }
    }

    /** In a broad mix, {@code filter} or, {@code fifths} times in five, a filter most records pass. */
    private String maybeBroad(String filter, int fifths) {
        return broad && random.nextInt(5) < fifths ? broadFilter() : filter;
    }

    /** A filter most records pass, or about half of them (a range at a sampled value). */
    private String broadFilter() {
        switch (random.nextInt(6)) {
            case 0:
            case 1: {
                String field = new String[] {"l_0", "l_1", "l_3", "timestamp"}[random.nextInt(4)];
                String op = new String[] {">", ">=", "<", "<="}[random.nextInt(4)];
                return clause(field, op, List.of(sampleValue(field)));
            }
            case 2:
                return broadNegation();
            case 3:
                return random.nextBoolean() ? clause(equalityField(), "!=", List.of(absent()))
                        : "{\"operation\":\"NOT\",\"clauses\":[" + clause(equalityField(), "==", List.of(absent())) + "]}";
            case 4:
                return clause(String.format(Locale.ROOT, "m_%02d", random.nextInt(23)), "CONTAINSKEY", List.of("k0"));
            default:
                return "{\"operation\":\"NOT\",\"clauses\":[" + clause(stringField(0, 1), "==",
                        List.of(sampleValue("s_00"))) + "]}";
        }
    }

    /** A broad exclusion (matches most records): for dashboards. */
    private String broadNegation() {
        switch (random.nextInt(3)) {
            case 0:
                // present in about a third of the records
                return clause("lm_" + random.nextInt(3) + ".2.k0", "!=", List.of(sampleValue("lm_0.0.k0")));
            case 1:
                return clause(stringField(0, 2), "!=", List.of(sampleValue("s_01")));
            default:
                return "{\"operation\":\"NOT\",\"clauses\":[" + clause("s_00", "==", List.of(NATO[random.nextInt(10)])) + "]}";
        }
    }

    /** An exclusion that leaves few records: searches. */
    private String negation() {
        switch (random.nextInt(4)) {
            case 0:
                return "{\"operation\":\"AND\",\"clauses\":[" + equality() + "," + clause("lm_" + random.nextInt(3) + ".2.k0",
                        "!=", List.of(sampleValue("lm_0.0.k0"))) + "]}";
            case 1: {
                // every value but the two rarest
                List<String> values = new ArrayList<>(List.of(NATO).subList(0, 8));
                values.remove(random.nextInt(values.size()));
                return "{\"operation\":\"AND\",\"clauses\":[{\"operation\":\"NOT\",\"clauses\":["
                       + clause("s_00", "==", values) + "]}," + range() + "]}";
            }
            case 2:
                return "{\"operation\":\"AND\",\"clauses\":[" + equality() + "," + clause(stringField(0, 2), "!=",
                        List.of(sampleValue("s_01"))) + "]}";
            default:
                return "{\"operation\":\"NOT\",\"clauses\":[" + clause("l_0", "<", List.of(String.valueOf(997 + random.nextInt(3))))
                       + "]}";
        }
    }

    private String contains() {
        int m = random.nextInt(23);
        String map = String.format(Locale.ROOT, "m_%02d", m);
        switch (random.nextInt(5)) {
            case 0:
                return clause(map, "CONTAINSKEY", List.of("k" + (1 + m % 4)));
            case 1:
                return clause("lm_" + random.nextInt(3), "CONTAINSVALUE", List.of(rareValue("m_03.k3")));
            case 2: {
                String key = selectiveMapKey();
                return clause(key.substring(0, 4), "CONTAINSVALUE", List.of(rareValue(key)));
            }
            case 3:
                return "{\"operation\":\"AND\",\"clauses\":[" + clause("lm_" + random.nextInt(3), "SIZEIS", List.of("3"))
                       + "," + clause("l_0", "<", List.of(String.valueOf(random.nextInt(10)))) + "]}";
            default:
                return clause(stringField(4, 5), "SIZEIS", List.of("7"));
        }
    }

    private String compound() {
        switch (random.nextInt(4)) {
            case 0:
                return "{\"operation\":\"AND\",\"clauses\":[" + clause("s_00", "==", List.of(NATO[random.nextInt(10)]))
                       + "," + rlike() + "]}";
            case 1:
                return "{\"operation\":\"OR\",\"clauses\":[" + equality() + "," + equality() + "]}";
            case 2:
                return "{\"operation\":\"AND\",\"clauses\":[" + clause(stringField(1, 2), "==", List.of(sampleValue("s_01")))
                       + "," + range() + "]}";
            default:
                return "{\"operation\":\"AND\",\"clauses\":[" + range() + ",{\"operation\":\"NOT\",\"clauses\":["
                       + clause("s_00", "==", List.of("alpha")) + "]}]}";
        }
    }

    /** A value of the field that is not one of its few most frequent (two-letter words are the head of each list). */
    private String rareValue(String field) {
        for (int tries = 0; tries < 50; tries++) {
            String v = sampleValue(field);
            if (v.length() >= 4) {
                return v;
            }
        }
        return absent();
    }

    private String sampleValue(String field) {
        FieldPath path = FieldPath.of(field);
        for (int tries = 0; tries < 50; tries++) {
            Object v = sample.get(random.nextInt(sample.size())).get(path);
            if (v instanceof String || v instanceof Number) {
                return String.valueOf(v);
            }
        }
        return absent();
    }

    private String absent() {
        return "zq" + Integer.toHexString(random.nextInt(1 << 20));
    }

    private static String eq(String field, String value) {
        return clause(field, "==", List.of(value));
    }

    private static String rlikeClause(String field, String pattern) {
        return "{\"field\":\"" + field + "\",\"operation\":\"RLIKE\",\"values\":[\"" + pattern.replace("\\", "\\\\") + "\"]}";
    }

    private static String clause(String field, String op, List<String> values) {
        StringBuilder v = new StringBuilder();
        for (String s : values) {
            v.append(v.length() == 0 ? "" : ",").append('"').append(s).append('"');
        }
        return "{\"field\":\"" + field + "\",\"operation\":\"" + op + "\",\"values\":[" + v + "]}";
    }
}
