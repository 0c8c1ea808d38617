package dev.bullet.bench;

import com.google.gson.JsonParser;
import dev.bullet.generator.RecordGenerator;
import dev.bullet.index.IndexFeature;
import dev.bullet.query.AggregationType;
import dev.bullet.query.Query;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.FilterEngine;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantiles.DoublesSketch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mixes the benchmarks measure, drawn from seeds they do not use, give with every optimisation of the engine the
 * partials the engine gives with none: its shared index, decided filters, batches, kept keys and groups, and its
 * per-thread key dictionaries (the dashboards draw in BQL uses about 70), over generated records read from their bytes,
 * in batches that do not fall on the index's 64, with filled RAW queries started again as the benchmark starts them.
 * Partials are compared byte for byte; a DISTRIBUTION's by its count, extremes and size, because the quantiles sketch
 * picks the items a compaction keeps with a random bit shared by every sketch, and the two engines meet the sketches in
 * different orders.
 */
class DrawnMixDifferentialTest {
    private static final long T0 = 1_700_000_000_000L;

    @ParameterizedTest(name = "{0} seed {1} in {2}, batches of {3}")
    @CsvSource({
        "realistic, 5150, JSON, 211",
        "broad, 6061, JSON, 300",
        "broad, 6061, BQL, 97",
        "dashboards, 7272, JSON, 256",
        "dashboards, 7272, BQL, 133",
    })
    void aDrawnMixGivesThePartialsOfTheEngineWithoutOptimisations(String kind, long seed, String form, int batch) {
        List<String> texts = RealisticQueries.draw(seed, kind.equals("broad"), kind.equals("dashboards"));
        if (form.equals("BQL")) {
            texts = texts.stream().map(t -> BqlForms.bql(JsonParser.parseString(t).getAsJsonObject())).toList();
        }
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        List<Query> queries = new ArrayList<>();
        for (String text : texts) {
            QueryParser.Result parsed = parser.parse(text);
            assertTrue(parsed.isValid(), text + ": " + parsed.errors());
            queries.add(parsed.query());
        }
        int records = kind.equals("dashboards") ? 1_500 : 3_000;
        List<FilterEngine.Partial> expected = run(EnumSet.noneOf(IndexFeature.class), queries, seed, records, batch);
        List<FilterEngine.Partial> actual = run(IndexFeature.all(), queries, seed, records, batch);
        assertEquals(expected.size(), actual.size(), "partials");
        int compared = 0;
        for (int i = 0; i < expected.size(); i++) {
            FilterEngine.Partial e = expected.get(i);
            FilterEngine.Partial a = actual.get(i);
            assertEquals(e.id(), a.id());
            Query query = queries.get(Integer.parseInt(e.id().substring(1)));
            if (e.data() != null && a.data() != null
                && query.aggregation().type() == AggregationType.DISTRIBUTION) {
                DoublesSketch x = DoublesSketch.heapify(Memory.wrap(e.data()));
                DoublesSketch y = DoublesSketch.heapify(Memory.wrap(a.data()));
                String what = "distribution of " + e.id() + ": " + query.original();
                assertEquals(x.getN(), y.getN(), what);
                assertEquals(x.getK(), y.getK(), what);
                if (!x.isEmpty()) {
                    assertEquals(x.getMinItem(), y.getMinItem(), what);
                    assertEquals(x.getMaxItem(), y.getMaxItem(), what);
                }
            } else {
                assertArrayEquals(e.data(), a.data(), "partial of " + e.id() + ": " + query.original());
            }
            compared++;
        }
        assertTrue(compared > 1_000, "too few partials compared: " + compared);
    }

    /** The partials of the queries over the records, in batches, ticked after each; filled queries started again. */
    private static List<FilterEngine.Partial> run(EnumSet<IndexFeature> features, List<Query> queries, long seed,
                                                  int records, int batch) {
        FilterEngine engine = new FilterEngine(QuerySettings.defaults(), features);
        for (int q = 0; q < queries.size(); q++) {
            engine.add("q" + q, queries.get(q), T0);
        }
        RecordGenerator generator = new RecordGenerator(seed + 1, () -> T0);
        RecordDecoder decoder = new RecordDecoder();
        List<FilterEngine.Partial> out = new ArrayList<>();
        for (int start = 0; start < records; start += batch) {
            List<Record> chunk = new ArrayList<>();
            for (int k = start; k < Math.min(records, start + batch); k++) {
                chunk.add(decoder.decode(generator.next()));
            }
            List<FilterEngine.Partial> step = new ArrayList<>();
            long now = T0 + start;
            engine.consume(chunk, now, step);
            engine.tick(now, step);
            step.sort(Comparator.comparing(FilterEngine.Partial::id)
                                .thenComparing(p -> p.data() == null));
            for (FilterEngine.Partial p : step) {
                if (p.filled()) {
                    engine.remove(p.id());
                    engine.add(p.id(), queries.get(Integer.parseInt(p.id().substring(1))), now);
                }
            }
            out.addAll(step);
        }
        return out;
    }
}
