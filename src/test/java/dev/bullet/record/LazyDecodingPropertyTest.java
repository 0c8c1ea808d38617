package dev.bullet.record;

import dev.bullet.record.JsonCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lazy decoding must be indistinguishable from decoding everything with gson (SPEC §5): over random records, random
 * formatting and random corruptions, the same messages are accepted, every path reads the same value, and the whole
 * record is the same map.
 */
class LazyDecodingPropertyTest {
    private static final String[] KEYS = {"id", "a", "b", "m", "l", "x.y", "\u00e9t\u00e9", "n", "s", "a.b"};
    private final RecordDecoder decoder = new RecordDecoder();

    private static Object randomValue(Random r, int depth) {
        switch (r.nextInt(depth > 2 ? 6 : 8)) {
            case 0:
                return randomString(r);
            case 1:
                return (long) r.nextInt(2000) - 1000;
            case 2:
                return r.nextBoolean() ? r.nextDouble() * 1e6 - 5e5 : (r.nextBoolean() ? 1e300 : -0.0);
            case 3:
                return r.nextBoolean();
            case 4:
                return null;
            case 5:
                return r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            case 6: {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    m.put(KEYS[r.nextInt(KEYS.length)], randomValue(r, depth + 1));
                }
                return m;
            }
            default: {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    l.add(randomValue(r, depth + 1));
                }
                return l;
            }
        }
    }

    private static String randomString(Random r) {
        String[] parts = {"plain", "quote\"d", "back\\slash", "tab\there", "new\nline", "\u00fcnic\u00f8de", "\u20ac", "",
                          "slash/", "\u0001ctl", "emoji\uD83D\uDE00"};
        return parts[r.nextInt(parts.length)] + r.nextInt(100);
    }

    private static String randomRecord(Random r) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(8); i >= 0; i--) {
            m.put(KEYS[r.nextInt(KEYS.length)], randomValue(r, 0));
        }
        String json = JsonCodec.toJson(m);
        if (r.nextInt(4) == 0) {
            json = json.replace(",", " ,\n\t").replace(":", " : ");
        }
        if (r.nextInt(10) == 0) {
            // a duplicate key: the last one wins in both decoders
            json = json.substring(0, json.length() - 1) + (m.isEmpty() ? "" : ",") + "\"id\":\"dup\"}";
        }
        return json;
    }

    private static String corrupt(Random r, String json) {
        StringBuilder sb = new StringBuilder(json);
        int at = r.nextInt(sb.length());
        String[] edits = {"", "\"", "}", "]", ",", ":", "x", "TRUE", "01", "1.", "\\q", "\u0000", " ", "nul", "-", "1e"};
        switch (r.nextInt(3)) {
            case 0:
                sb.insert(at, edits[r.nextInt(edits.length)]);
                break;
            case 1:
                sb.deleteCharAt(at);
                break;
            default: {
                String edit = edits[r.nextInt(edits.length)];
                sb.setCharAt(at, edit.isEmpty() ? ' ' : edit.charAt(0));
                break;
            }
        }
        return sb.toString();
    }

    /** Messages arrive as bytes: both decoders get the same UTF-8 bytes (a lone surrogate is already '?'). */
    private void assertSameAsGson(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String json = new String(bytes, StandardCharsets.UTF_8);
        Record eager = RecordDecoder.decodeEagerly(json);
        Record lazy = decoder.decode(bytes);
        if (eager == null) {
            assertNull(lazy, () -> "gson rejects, so must the lazy decoder: " + json);
            return;
        }
        assertEquals(eager.asMap() == null, lazy == null, json);
        if (lazy instanceof LazyRecord) { // plain: no escape and no byte above 0x7F anywhere in the message
            boolean plain = true;
            for (byte b : bytes) {
                plain &= b >= 0 && b != '\\';
            }
            assertEquals(plain, ((LazyRecord) lazy).plainAscii(), () -> "plain ASCII of " + json);
        }
        Record fresh = decoder.decode(bytes);
        if (fresh instanceof LazyRecord) {
            ((LazyRecord) fresh).warm(); // brings the bytes near and changes nothing the reads see
        }
        for (String key : KEYS) {
            for (String path : List.of(key, key + ".a", key + ".0", key + ".0.b", key + ".m.l", "m." + key, "l.1")) {
                FieldPath p = FieldPath.of(path);
                assertEquals(eager.get(p), fresh.get(p), () -> "path " + path + " of " + json);
            }
        }
        for (String key : KEYS) { // a span, walked in the bytes or found through a view, holds what get reads
            for (String path : List.of(key, key + ".a", key + ".0", key + ".0.b", key + ".m.l", "m." + key, "l.1",
                                       "m.a.b", "l.0.0", key + ".-1")) {
                FieldPath p = FieldPath.of(path);
                Record walked = decoder.decode(bytes);
                Record viewed = decoder.decode(bytes);
                if (viewed instanceof LazyRecord) {
                    viewed.get(FieldPath.of(p.toString().split("\\.")[0])); // the head read: the view answers
                }
                for (Record r : new Record[] {walked, viewed}) {
                    if (r instanceof LazyRecord) {
                        assertSpanHolds(eager.get(p), (LazyRecord) r, p, json);
                    }
                }
            }
        }
        for (String head : List.of("m", "a", "l", "x", "n", "id")) { // paths under one head, read together, as alone
            PathTree tree = new PathTree(head);
            List<FieldPath> paths = new ArrayList<>();
            for (String tail : List.of("a", "b", "0", "1", "y", "m", "id", "a.b", "0.b", "0.a", "1.a", "m.l", "m.a",
                                       "0.0", "1.0.a", "-1", "s.m")) {
                if (Math.floorMod((head + tail + json).hashCode(), 3) != 0) { // a different set of paths each time
                    paths.add(FieldPath.of(head + "." + tail));
                    assertEquals(paths.size() - 1, tree.add(paths.get(paths.size() - 1)));
                }
            }
            if (paths.size() > 2) { // a freed position is reused
                tree.remove(1);
                assertEquals(1, tree.add(paths.get(1)));
            }
            for (boolean viewed : new boolean[] {false, true}) {
                Record r = decoder.decode(bytes);
                if (!(r instanceof LazyRecord)) {
                    continue;
                }
                LazyRecord record = (LazyRecord) r;
                if (viewed) {
                    record.get(FieldPath.of(head));
                }
                long[] out = new long[tree.capacity()];
                record.treeSpans(tree, record.layoutSlot(FieldPath.of(head)), out);
                for (int p = 0; p < paths.size(); p++) {
                    FieldPath path = paths.get(p);
                    assertEquals(record.span(path), out[p], () -> path + (viewed ? " (head read)" : "") + " of " + json);
                }
            }
        }
        for (String key : KEYS) { // objects and arrays read in place behave as the decoded ones in every way
            assertSameContainer(eager.get(FieldPath.of(key)), decoder.decode(bytes).get(FieldPath.of(key)), json);
        }
        assertEquals(eager.asMap(), lazy.asMap(), json);
        assertEquals(new ArrayList<>(eager.asMap().keySet()), new ArrayList<>(lazy.asMap().keySet()), () -> "key order " + json);
    }

    private static void assertSpanHolds(Object expected, LazyRecord record, FieldPath path, String json) {
        long span = record.span(path);
        if (span == Span.UNSURE) {
            return;
        }
        if (span == Span.MISSING) {
            assertNull(expected, () -> "span MISSING, path " + path + " of " + json);
            return;
        }
        byte[] data = record.bytes();
        int start = Span.start(span);
        String text = new String(data, start, Span.end(span) - start, StandardCharsets.UTF_8);
        assertEquals(expected, JsonCodec.parse(text), () -> "span of path " + path + " of " + json);
    }

    /** A container read in place against the decoded one: every Map and List operation the engine uses. */
    private static void assertSameContainer(Object expected, Object actual, String json) {
        assertEquals(expected, actual, json);
        if (expected instanceof Map) {
            Map<?, ?> e = (Map<?, ?>) expected;
            Map<?, ?> a = (Map<?, ?>) actual;
            assertEquals(e.size(), a.size(), json);
            assertEquals(new ArrayList<>(e.keySet()), new ArrayList<>(a.keySet()), () -> "key order " + json);
            assertEquals(new ArrayList<>(e.values()), new ArrayList<>(a.values()), () -> "values " + json);
            assertEquals(new ArrayList<>(e.entrySet()), new ArrayList<>(a.entrySet()), () -> "entries " + json);
            for (String key : KEYS) {
                assertEquals(e.containsKey(key), a.containsKey(key), () -> key + " in " + json);
                assertEquals(e.get(key), a.get(key), () -> key + " in " + json);
            }
            assertEquals(e.containsKey(1), a.containsKey(1), json);
            assertEquals(e.hashCode(), a.hashCode(), json);
            assertEquals(a, e, () -> "symmetric equals " + json);
            for (Object key : e.keySet()) {
                assertSameContainer(e.get(key), a.get(key), json);
            }
        } else if (expected instanceof List) {
            List<?> e = (List<?>) expected;
            List<?> a = (List<?>) actual;
            assertEquals(e.size(), a.size(), json);
            assertEquals(e.hashCode(), a.hashCode(), json);
            assertEquals(a, e, () -> "symmetric equals " + json);
            for (int i = 0; i < e.size(); i++) {
                assertSameContainer(e.get(i), a.get(i), json);
            }
        } else {
            return;
        }
        assertEquals(expected.toString(), actual.toString(), json);
        assertEquals(JsonCodec.toJson(expected), JsonCodec.toJson(actual), json);
    }

    @Test
    void randomRecordsDecodeExactlyAsGsonDoes() {
        Random r = new Random(20261122);
        for (int i = 0; i < 20_000; i++) {
            assertSameAsGson(randomRecord(r));
        }
    }

    /** A value whose strings and keys are plain ASCII: nested reads take their fast paths (word compares of keys). */
    private static Object plainValue(Random r, int depth) {
        switch (r.nextInt(depth > 3 ? 4 : 7)) {
            case 0:
                return new String[] {"", "a", "ab", "abcdefgh", "k0", "m", "slash/", "0"}[r.nextInt(8)];
            case 1:
                return (long) r.nextInt(2000) - 1000;
            case 2:
                return r.nextBoolean() ? r.nextBoolean() : null;
            case 3:
                return r.nextDouble() * 100;
            case 4:
            case 5: {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = r.nextInt(5); i > 0; i--) {
                    m.put(new String[] {"a", "b", "m", "l", "0", "1", "y", "abcdefghij", "x.y"}[r.nextInt(9)],
                          plainValue(r, depth + 1));
                }
                return m;
            }
            default: {
                List<Object> l = new ArrayList<>();
                for (int i = r.nextInt(r.nextInt(20) == 0 ? 200 : 5); i > 0; i--) { // now and then a long list
                    l.add(plainValue(r, depth + 1));
                }
                return l;
            }
        }
    }

    @Test
    void plainAsciiRecordsWithDeepAndLongContainersReadExactlyAsGsonDoes() {
        Random r = new Random(20261126);
        String[] heads = {"id", "a", "b", "m", "l", "x", "n", "s"};
        for (int i = 0; i < 2_000; i++) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int k = r.nextInt(8); k >= 0; k--) {
                m.put(heads[r.nextInt(heads.length)], plainValue(r, 0));
            }
            String json = JsonCodec.toJson(m);
            if (r.nextInt(4) == 0) {
                json = json.replace(",", " ,\n\t").replace(":", " : ").replace("{", "{ ").replace("[", "[ ");
            }
            if (r.nextInt(5) == 0) { // duplicate keys at the top and inside: the last one wins
                json = json.replace("\"a\":", "\"b\":1,\"a\":").replace("{", "{\"m\":{\"a\":[0]},");
            }
            assertSameAsGson(json);
        }
    }

    @Test
    void corruptedRecordsAreAcceptedOrRejectedExactlyAsGsonDoes() {
        Random r = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            assertSameAsGson(corrupt(r, randomRecord(r)));
        }
    }

    @Test
    void edgeCasesMatchGson() {
        for (String json : List.of("{}", " {} ", "{\"a\":1}x", "[1]", "\"s\"", "", "{\"a\":01}", "{\"a\":-0}",
                                   "{\"a\":1E400}", "{\"a\":-}", "{\"a\":tRue}", "{'a':1}", "{\"a\":1,}", "{\"a\" 1}",
                                   "{\"a\":\"\\u00e9\"}", "{\"a\":\"\\x\"}", "{\"a\":[1,2,]}", "{\"a\":{\"b\":{}}}",
                                   "{\"a\\\"b\":1}", "{\"a\":1}{\"b\":2}", "{\"a\":\"unterminated}", "{\"a\":NaN}",
                                   "{\"a\":9223372036854775808}", "{\"a\":-9223372036854775808}", "{\"a\":1.0}")) {
            assertSameAsGson(json);
        }
    }

    @Test
    void aRecordIsPlainAsciiExactlyWhenNoStringHoldsAnEscapeOrAByteAbove0x7f() {
        // the odd byte (a non-ASCII letter, an escape) at every position of a word, and next to the closing quote
        List<String> inners = new ArrayList<>(List.of("", "abcdefgh", "abcdefghijklmnopq", "\\\\", "\\\""));
        for (int at = 0; at <= 17; at++) {
            inners.add("a".repeat(at) + "\u00e9");
            inners.add("a".repeat(at) + "\u00e9" + "bcdefghij".substring(0, at % 9));
            inners.add("a".repeat(at) + "\\n" + "b".repeat(at % 5));
        }
        for (String inner : inners) {
            for (String json : List.of("{\"a\":\"" + inner + "\"}", "{\"m\":{\"k\":[1,\"" + inner + "\"]},\"z\":\"zz\"}",
                                       "{\"m\":{\"" + inner + "\":true}}", "{\"" + inner + "\":1,\"b\":\"plain text\"}")) {
                assertSameAsGson(json);
            }
        }
    }

    @Test
    void pathsThroughDuplicateEscapedAndNonAsciiNestedKeysReadAsGsonReadsThem() {
        for (String json : List.of("{\"m\":{\"a\":1,\"a\":2}}", "{\"m\":{\"a\":{\"b\":1},\"x\":0,\"a\":{\"c\":2}}}",
                                   "{\"m\":{\"a\":null,\"a\":\"s\"}}", "{\"m\":{\"a\":\"s\",\"a\":null}}",
                                   "{\"m\" : { \"a\" : [ 1 , { \"b\" : \"x\" } ] , \"l\" : 2 } }",
                                   "{\"m\":{\"\\u0061\":5}}", "{\"m\":{\"a\":1,\"\\u0061\":5}}", "{\"m\":{\"\u00e9\":1,\"a\":2}}",
                                   "{\"m\":{\"a\":\"q\\\"uote\",\"a\":\"last\"}}", "{\"l\":[[1,2],{\"b\":[3]},\"s\"]}",
                                   "{\"l\":[{\"b\":1,\"b\":{\"m\":{\"l\":7}}}]}", "{\"m\":{\"m\":{\"l\":1},\"m\":{\"l\":2}}}",
                                   "{\"m\":{},\"l\":[]}", "{\"m\":{\"ab\":1,\"a\":2,\"\":3}}", "{\"id\":{\"a\":1},\"id\":{\"a\":2}}")) {
            assertSameAsGson(json);
        }
    }

    @Test
    void aRecordReadManyTimesFindsTheLastOfDuplicateKeysAndNothingForCollidingAbsentOnes() {
        // "Aa", "BB" and "C#" have the same hash; lookups after the first few go through the record's key table
        StringBuilder json = new StringBuilder("{\"Aa\":1,\"BB\":2");
        for (int i = 0; i < 40; i++) {
            json.append(",\"k").append(i).append("\":").append(i);
        }
        json.append(",\"Aa\":3,\"k7\":\"last\",\"m\":{\"Aa\":5,\"Aa\":6}}");
        Record lazy = decoder.decode(json.toString().getBytes(StandardCharsets.UTF_8));
        Record eager = RecordDecoder.decodeEagerly(json.toString());
        for (int round = 0; round < 3; round++) {
            for (String path : List.of("Aa", "BB", "C#", "k0", "k7", "k39", "k40", "m.Aa", "m.BB", "nope")) {
                assertEquals(eager.get(FieldPath.of(path)), lazy.get(FieldPath.of(path)), "round " + round + " path " + path);
            }
        }
        assertEquals(3L, ((Number) lazy.get(FieldPath.of("Aa"))).longValue());
        assertEquals("last", lazy.get(FieldPath.of("k7")));
        assertNull(lazy.get(FieldPath.of("C#")));
        assertEquals(eager.asMap(), lazy.asMap());
    }

    @Test
    void aLayoutSharedByRecordsWhoseKeysOnlyHashAlikeNeverAnswersForTheWrongKey() {
        // "abcdz", "zbcda" and "bbcdy" hash alike (bytes four apart fold onto each other), so these records share
        // one key layout; only the first one's keys are the layout's own bytes, and a slot found through another
        // record's layout must still be checked against the key, before and after warm()
        // (keys of 8 bytes and more are compared another way: both are here)
        assertLayoutNeverAnswersForTheWrongKey(
            List.of("{\"abcdz\":1,\"x\":{\"Aa\":2}}", "{\"zbcda\":3,\"x\":{\"Aa\":4}}", "{\"abcdz\":5,\"x\":{\"Aa\":6}}",
                    "{\"bbcdy\":7,\"x\":null}", "{\"zbcda\":8,\"x\":9}"),
            List.of(FieldPath.of("abcdz"), FieldPath.of("zbcda"), FieldPath.of("bbcdy"), FieldPath.of("x.Aa")));
        assertLayoutNeverAnswersForTheWrongKey(
            List.of("{\"abcdeabcde\":1,\"x\":2,\"abcdq\":3}", "{\"ebcdaebcda\":4,\"x\":5,\"qbcda\":6}",
                    "{\"abcdeebcda\":7,\"x\":8,\"abcdq\":9}", "{\"abcdeabcde\":10,\"x\":11,\"bbcdr\":12}"),
            List.of(FieldPath.of("abcdeabcde"), FieldPath.of("ebcdaebcda"), FieldPath.of("abcdeebcda"), FieldPath.of("x"),
                    FieldPath.of("abcdq"), FieldPath.of("qbcda"), FieldPath.of("bbcdr")));
    }

    @Test
    void shortAsciiKeysAreTheirOwnHashSoOnlyEqualKeysShareALayout() {
        // "Aa", "BB" and "C#" hash alike under a 31-polynomial; a key of at most four ASCII bytes is hashed as its
        // bytes, so these records have layouts of their own, and each key is found as get finds it
        List<String> records = List.of("{\"Aa\":1,\"x\":2}", "{\"BB\":3,\"x\":4}", "{\"C#\":5,\"x\":6}",
                                       "{\"\":7,\"x\":8}", "{\"Aa \":9,\"x\":10}", "{\"é\":11,\"x\":12}");
        List<FieldPath> paths = List.of(FieldPath.of("Aa"), FieldPath.of("BB"), FieldPath.of("C#"), FieldPath.of("Aa "), FieldPath.of("é"), FieldPath.of("x"), FieldPath.of("Aa\u0000"));
        for (String a : records) {
            LazyRecord layoutOf = (LazyRecord) decoder.decode(a.getBytes(StandardCharsets.UTF_8));
            for (String json : records) {
                LazyRecord record = (LazyRecord) decoder.decode(json.getBytes(StandardCharsets.UTF_8));
                assertTrue(a.equals(json) || layoutOf.layout() != record.layout(), a + " beside " + json);
                Record eager = RecordDecoder.decodeEagerly(json);
                for (FieldPath path : paths) {
                    assertEquals(eager.get(path), record.get(path), path + " of " + json);
                    long span = record.span(path);
                    if (span != Span.UNSURE) { // a record with a non-ASCII key leaves its spans to get
                        assertEquals(eager.get(path) == null, span == Span.MISSING, path + " of " + json);
                    }
                }
            }
        }
        assertTrue(JsonScanner.isExact(JsonScanner.hash("C#".getBytes(StandardCharsets.UTF_8))));
        assertFalse(JsonScanner.isExact(JsonScanner.hash("Aa\u0000".getBytes(StandardCharsets.UTF_8))));
        assertFalse(JsonScanner.isExact(JsonScanner.hash("abcdz".getBytes(StandardCharsets.UTF_8))));
        assertFalse(JsonScanner.isExact(JsonScanner.hash("é".getBytes(StandardCharsets.UTF_8))));
    }

    private void assertLayoutNeverAnswersForTheWrongKey(List<String> records, List<FieldPath> paths) {
        for (int round = 0; round < 3; round++) {
            for (int first = 0; first < records.size(); first++) {
                LazyRecord layoutOf = (LazyRecord) decoder.decode(records.get(first).getBytes(StandardCharsets.UTF_8));
                for (int k = 0; k < records.size(); k++) {
                    String json = records.get((first + k) % records.size());
                    LazyRecord record = (LazyRecord) decoder.decode(json.getBytes(StandardCharsets.UTF_8));
                    if (round > 0) {
                        record.warm(); // checks the record's keys against the layout's: only its own skip the compare
                    }
                    Record eager = RecordDecoder.decodeEagerly(json);
                    assertEquals(layoutOf.layout(), record.layout(), json);
                    for (FieldPath path : paths) {
                        long span = record.span(path, layoutOf.layoutSlot(path));
                        Object expected = eager.get(path);
                        assertEquals(expected == null, span == Span.MISSING, path + " of " + json);
                        if (expected != null) {
                            String text = new String(record.bytes(), Span.start(span), Span.length(span),
                                                     StandardCharsets.UTF_8);
                            assertEquals(expected, RecordDecoder.decodeEagerly("{\"v\":" + text + "}").get(FieldPath.of("v")),
                                         path + " of " + json);
                        }
                        if (path.depth() > 1) {
                            PathTree tree = new PathTree(path.head());
                            tree.add(path);
                            long[] out = new long[tree.capacity()];
                            record.treeSpans(tree, layoutOf.layoutSlot(path), out);
                            assertEquals(span, out[0], "tree of " + path + " of " + json);
                        } else {
                            assertEquals(span, record.topSpan(path, layoutOf.layoutSlot(path)), "top " + path + " of " + json);
                        }
                    }
                }
            }
        }
    }

    @Test
    void largeMapsWithDuplicateAndNonAsciiKeysReadAsGsonReadsThem() {
        // past the pairwise duplicate check (16 keys) the view finds duplicates through a hash map
        for (int dupAt : new int[] {3, 17, 39}) {
            StringBuilder json = new StringBuilder("{\"m\":{");
            for (int i = 0; i < 40; i++) {
                json.append(i > 0 ? "," : "").append("\"k").append(i).append(i % 7 == 0 ? "\u00e9" : "").append("\":").append(i);
            }
            json.append(",\"k").append(dupAt).append(dupAt % 7 == 0 ? "\u00e9" : "").append("\":\"last\"");
            json.append(",\"\u00ff\":1,\"\u00ff\":[2,{\"a\":3}],\"Aa\":4,\"BB\":5,\"Aa\":6}}"); // Aa, BB, C# hash alike
            Record eager = RecordDecoder.decodeEagerly(json.toString());
            Record lazy = decoder.decode(json.toString().getBytes(StandardCharsets.UTF_8));
            assertSameContainer(eager.get(FieldPath.of("m")), lazy.get(FieldPath.of("m")), json.toString());
            for (String path : List.of("m.k" + dupAt, "m.k" + dupAt + "\u00e9", "m.k20", "m.\u00ff", "m.\u00ff.1.a", "m.k40",
                                       "m.Aa", "m.BB", "m.C#")) {
                Record fresh = decoder.decode(json.toString().getBytes(StandardCharsets.UTF_8));
                assertEquals(eager.get(FieldPath.of(path)), fresh.get(FieldPath.of(path)), path + " of " + json);
            }
            Map<?, ?> viewed = (Map<?, ?>) decoder.decode(json.toString().getBytes(StandardCharsets.UTF_8)).get(FieldPath.of("m"));
            Map<?, ?> decoded = (Map<?, ?>) eager.get(FieldPath.of("m"));
            for (Object key : List.of("k0\u00e9", "k1", "k" + dupAt, "k39", "k40", "Aa", "BB", "C#", "\u00ff", "", "k")) {
                assertEquals(decoded.get(key), viewed.get(key), key + " in " + json);
                assertEquals(decoded.containsKey(key), viewed.containsKey(key), key + " in " + json);
            }
        }
    }

    @Test
    void pathsIntoContainersNotYetDecodedMatchTheDecodedWalk() {
        for (String json : List.of(
                "{\"m\":{\"a\":1,\"b\":{\"c\":[10,{\"d\":\"x\"}]},\"a\":2}}",
                "{\"m\":{\"a\\u0062\":1,\"ab\":2}}",
                "{\"m\":{ \"a\" : [ ] , \"b\" : { } , \"c\" : null, \"d\" : \"q\\\"uote\" }}",
                "{\"l\":[[1,2],[3,[4,5]],{\"0\":\"key zero\"}],\"m\":{\"0\":\"z\"}}",
                "{\"m\":{\"a\":{\"b\":1},\"a\":{\"c\":2}},\"m.a\":\"flat\"}",
                "{\"m\":{\"x\":1.50,\"y\":-0,\"z\":1e400,\"w\":12345678901234567890,\"t\":true}}")) {
            Record eager = RecordDecoder.decodeEagerly(json);
            for (String path : List.of("m.a", "m.ab", "m.b", "m.b.c", "m.b.c.0", "m.b.c.1", "m.b.c.1.d", "m.b.c.2",
                                       "m.a.b", "m.a.c", "m.c", "m.c.x", "m.d", "m.0", "m.x", "m.y", "m.z", "m.w",
                                       "m.t", "m.t.x", "l.0", "l.0.1", "l.1.1.0", "l.2.0", "l.3", "l.-1", "l.x",
                                       "m.a.0", "m.a.b.c")) {
                Record fresh = decoder.decode(json.getBytes(StandardCharsets.UTF_8));
                assertEquals(eager.get(FieldPath.of(path)), fresh.get(FieldPath.of(path)), "path " + path + " of " + json);
            }
            Record shared = decoder.decode(json.getBytes(StandardCharsets.UTF_8)); // paths after the whole map is decoded
            shared.get(FieldPath.of("m"));
            assertEquals(eager.get(FieldPath.of("m.a")), shared.get(FieldPath.of("m.a")), json);
        }
    }
}
