package dev.bullet.querying;

import dev.bullet.index.IndexFeature;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One index feature on and off over the same queries and records: the partials, byte for byte, step by step, and the
 * queries that no longer meet every record with it on. For the property tests of the indexes for expression filters.
 */
final class WithAndWithout {
    private WithAndWithout() {
    }

    /**
     * For seeds 1 to 6: 3,000 records drawn by {@code record(random, id)}, fed to an engine with every feature and to
     * one without {@code feature}, in batches of random sizes with ticks after some and a query removed and added again
     * between some. The partials must be equal, some query must match, and fewer queries meet every record with it.
     */
    static void compare(IndexFeature feature, List<String> queries, BiFunction<Random, Integer, String> record) {
        for (long seed = 1; seed <= 6; seed++) {
            Random r = new Random(seed);
            List<String> stream = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                stream.add(record.apply(r, i));
            }
            EnumSet<IndexFeature> without = IndexFeature.all();
            without.remove(feature);
            FilterEngine indexed = new FilterEngine(QuerySettings.defaults(), IndexFeature.all());
            FilterEngine tested = new FilterEngine(QuerySettings.defaults(), without);
            List<String> expected = run(tested, queries, stream, new Random(seed * 31));
            List<String> actual = run(indexed, queries, stream, new Random(seed * 31));
            for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) { // the first that differs: lists are long
                assertEquals(expected.get(i), actual.get(i), "seed " + seed + ", partial " + i);
            }
            assertEquals(expected.size(), actual.size(), "seed " + seed + ": partials");
            assertTrue(indexed.unindexed() < tested.unindexed(),
                       feature + " queries wait in the index: " + indexed.unindexed() + " against " + tested.unindexed());
            assertTrue(expected.stream().anyMatch(p -> !p.endsWith("none")), "some query matched");
        }
    }

    /** Each step's partials, sorted, as "step id bytes". */
    private static List<String> run(FilterEngine engine, List<String> queries, List<String> stream, Random r) {
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        for (int q = 0; q < queries.size(); q++) {
            engine.add("q" + q, parse(parser, queries.get(q)), 0L);
        }
        RecordDecoder decoder = new RecordDecoder();
        List<String> out = new ArrayList<>();
        int step = 0;
        for (int start = 0; start < stream.size(); step++) {
            int end = Math.min(stream.size(), start + 1 + r.nextInt(r.nextBoolean() ? 70 : 400));
            List<Record> batch = new ArrayList<>();
            for (String json : stream.subList(start, end)) {
                batch.add(decoder.decode(json.getBytes(StandardCharsets.UTF_8)));
            }
            start = end;
            List<FilterEngine.Partial> partials = new ArrayList<>();
            engine.consume(batch, 10L, partials);
            if (r.nextInt(3) == 0) {
                engine.tick(10L, partials);
            }
            if (r.nextInt(8) == 0) {
                int q = r.nextInt(queries.size());
                engine.remove("q" + q);
                engine.add("q" + q, parse(parser, queries.get(q)), 0L);
            }
            partials.sort((a, b) -> a.id().compareTo(b.id()));
            for (FilterEngine.Partial p : partials) {
                out.add(step + " " + p.id() + " " + (p.data() == null ? "none" : Arrays.toString(p.data())));
            }
        }
        return out;
    }

    static Query parse(QueryParser parser, String text) {
        QueryParser.Result parsed = parser.parse(text);
        assertTrue(parsed.isValid(), text + ": " + parsed.errors());
        return parsed.query();
    }
}
