package dev.bullet.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Hostile inputs made by mutating good ones: seeds (valid queries and records) with fragments inserted,
 * bytes replaced or deleted, and the text truncated. Shared by the jqwik properties (which draw the mutations) and
 * the integration tests (which draw them from a seeded {@link Random}).
 */
public final class Fuzz {
    private Fuzz() {
    }

    /** One edit: 0 insert the fragment, 1 replace one unit with it, 2 delete one unit, 3 truncate there. */
    public record Mutation(int kind, int position, int fragment) {
    }

    public static final List<String> QUERY_SEEDS = List.of(
            "{}",
            "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"c39ba8cfe8\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":30000}",
            "{\"filters\":[{\"field\":\"n\",\"operation\":\"<\",\"values\":[\"-NaN\",\"3\"]}],\"duration\":1}",
            "{\"filters\":[{\"operation\":\"OR\",\"clauses\":[{\"field\":\"a.b\",\"operation\":\"RLIKE\",\"values\":[\".*x.*\"]},"
            + "{\"operation\":\"NOT\",\"clauses\":[{\"field\":\"m\",\"operation\":\"CONTAINSKEY\",\"values\":[\"k\"]}]}]}],\"duration\":1}",
            "{\"filters\":[{\"field\":\"n\",\"operation\":\">=\",\"values\":[{\"kind\":\"FIELD\",\"value\":\"m.k\",\"type\":\"DOUBLE\"}]}],"
            + "\"projection\":{\"fields\":{\"n\":\"x\"}},\"duration\":1}",
            "{\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"g\":\"g\"},\"attributes\":{\"operations\":[{\"type\":\"COUNT\"},"
            + "{\"type\":\"AVG\",\"field\":\"n\"}]}},\"postAggregations\":[{\"type\":\"ORDERBY\",\"fields\":[\"g\"]},"
            + "{\"type\":\"HAVING\",\"filter\":{\"field\":\"COUNT\",\"operation\":\">\",\"values\":[\"1\"]}},"
            + "{\"type\":\"COMPUTATION\",\"expression\":{\"operation\":\"/\",\"left\":{\"value\":{\"kind\":\"FIELD\",\"value\":\"COUNT\"}},"
            + "\"right\":{\"value\":{\"kind\":\"VALUE\",\"value\":\"0\",\"type\":\"LONG\"}}},\"newName\":\"r\"}],\"duration\":1}",
            "{\"aggregation\":{\"type\":\"DISTRIBUTION\",\"fields\":{\"n\":\"n\"},\"attributes\":{\"type\":\"PMF\",\"start\":-1e400,"
            + "\"end\":1e400,\"increment\":1e-300}},\"duration\":1}",
            "{\"aggregation\":{\"type\":\"TOP K\",\"size\":3,\"fields\":{\"s\":\"s\"},\"attributes\":{\"threshold\":-9223372036854775808}},"
            + "\"window\":{\"emit\":{\"type\":\"RECORD\",\"every\":1},\"include\":{\"type\":\"RECORD\",\"first\":1}},\"duration\":1}",
            "{\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"s\":\"s\"}},\"window\":{\"emit\":{\"type\":\"TIME\",\"every\":1}},"
            + "\"duration\":99999999999999999999}");

    public static final List<String> QUERY_FRAGMENTS = List.of(
            "{", "}", "[", "]", "\"", ",", ":", "\\", "\u0000", "\uD800", "\u00e9", "NaN", "-NaN", "Infinity", "1e400",
            "-0", "99999999999999999999999", "null", "true", "[[[[[[[[[[[[[[[[[[[[", "{\"a\":{\"a\":{\"a\":{\"a\":",
            "\"operation\":\"NOT\",\"clauses\":[", "{\"field\":\"n\",\"operation\":\"<\",\"values\":[\"-NaN\"]}",
            "\"values\":[]", "\"values\":[null]", "\"RLIKE\"", "\"(a*)*b\"", "\"[\"", "\"SIZEIS\"", "\"CONTAINSVALUE\"",
            "\"kind\":\"FIELD\"", "\"type\":\"LONG\"", "\"size\":-1", "\"size\":1e10", "\"duration\":-5",
            "\"window\":{}", "\"aggregation\":{\"type\":\"RAW\"}", "\"\"", "\"\\u0000\"", "\"\\ud800\"", "0x10", "   ");

    public static final List<String> RECORD_SEEDS = List.of(
            "{}",
            "{\"id\":\"x\",\"n\":1,\"d\":2.5,\"b\":true,\"z\":null}",
            "{\"m\":{\"k\":[1,2,{\"a\":\"\\u00e9\\n\\\"\"}]},\"l\":[],\"e\":{},\"s\":\"\u00fcnic\u00f8de \uD83D\uDE00\"}",
            "{\"big\":99999999999999999999999,\"neg\":-0,\"exp\":1e400,\"small\":-1.5E-300,\"max\":9223372036854775807}",
            "{\"dup\":1,\"dup\":2,\"a.b\":3}");

    public static final List<byte[]> RECORD_FRAGMENTS = List.of(
            new byte[]{(byte) 0xFF}, new byte[]{(byte) 0xC0, (byte) 0x80}, new byte[]{(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            new byte[]{(byte) 0xE2, (byte) 0x82}, new byte[]{(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            "\\u12".getBytes(StandardCharsets.UTF_8), "\\ud800".getBytes(StandardCharsets.UTF_8),
            "\\\"".getBytes(StandardCharsets.UTF_8), "\\x".getBytes(StandardCharsets.UTF_8), new byte[]{0},
            "{".getBytes(StandardCharsets.UTF_8), "}".getBytes(StandardCharsets.UTF_8), "[".getBytes(StandardCharsets.UTF_8),
            "]".getBytes(StandardCharsets.UTF_8), "\"".getBytes(StandardCharsets.UTF_8), ",".getBytes(StandardCharsets.UTF_8),
            ":".getBytes(StandardCharsets.UTF_8), "NaN".getBytes(StandardCharsets.UTF_8), "-".getBytes(StandardCharsets.UTF_8),
            "1e".getBytes(StandardCharsets.UTF_8), "012".getBytes(StandardCharsets.UTF_8), "tru".getBytes(StandardCharsets.UTF_8),
            " \t\r\n".getBytes(StandardCharsets.UTF_8), "\u00e9".getBytes(StandardCharsets.UTF_8),
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]".getBytes(StandardCharsets.UTF_8),
            "\"k\":".getBytes(StandardCharsets.UTF_8), "\"\u00e9\":1,".getBytes(StandardCharsets.UTF_8));

    /** Applies the mutations to a query seed. */
    public static String mutateQuery(String seed, List<Mutation> mutations) {
        StringBuilder b = new StringBuilder(seed);
        for (Mutation m : mutations) {
            int at = b.length() == 0 ? 0 : Math.floorMod(m.position(), b.length() + 1);
            String fragment = QUERY_FRAGMENTS.get(Math.floorMod(m.fragment(), QUERY_FRAGMENTS.size()));
            switch (m.kind()) {
                case 0 -> b.insert(at, fragment);
                case 1 -> {
                    if (at < b.length()) {
                        b.replace(at, at + 1, fragment);
                    }
                }
                case 2 -> {
                    if (at < b.length()) {
                        b.deleteCharAt(at);
                    }
                }
                default -> b.setLength(at);
            }
        }
        return b.toString();
    }

    /** Applies the mutations to a record seed, as bytes (so ill-formed UTF-8 can appear anywhere). */
    public static byte[] mutateRecord(String seed, List<Mutation> mutations) {
        List<Byte> b = new ArrayList<>();
        for (byte x : seed.getBytes(StandardCharsets.UTF_8)) {
            b.add(x);
        }
        for (Mutation m : mutations) {
            int at = Math.floorMod(m.position(), b.size() + 1);
            byte[] fragment = RECORD_FRAGMENTS.get(Math.floorMod(m.fragment(), RECORD_FRAGMENTS.size()));
            switch (m.kind()) {
                case 0 -> {
                    for (int i = fragment.length - 1; i >= 0; i--) {
                        b.add(at, fragment[i]);
                    }
                }
                case 1 -> {
                    if (at < b.size()) {
                        b.set(at, fragment[0]);
                    }
                }
                case 2 -> {
                    if (at < b.size()) {
                        b.remove(at);
                    }
                }
                default -> {
                    while (b.size() > at) {
                        b.remove(b.size() - 1);
                    }
                }
            }
        }
        byte[] out = new byte[b.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.get(i);
        }
        return out;
    }

    /** A random fuzzed query, for tests that draw from a seeded {@link Random}. */
    public static String randomQuery(Random r) {
        List<Mutation> mutations = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
            mutations.add(new Mutation(r.nextInt(10) < 6 ? 0 : r.nextInt(4), r.nextInt(1000), r.nextInt(1000)));
        }
        return mutateQuery(QUERY_SEEDS.get(r.nextInt(QUERY_SEEDS.size())), mutations);
    }
}
