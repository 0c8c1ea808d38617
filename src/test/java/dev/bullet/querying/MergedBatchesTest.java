package dev.bullet.querying;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Join's record of merged batches, against a naive set of every merged offset. */
class MergedBatchesTest {

    @Test
    void inOrderBatchesOfAPartitionAreOneRunHoweverManyThereAre() {
        MergedBatches merged = new MergedBatches();
        for (long first = 0; first < 1_000_000; first += 500) {
            merged.add(3, first, first + 499);
        }
        assertEquals(1, merged.runs());
        assertEquals(MergedBatches.Overlap.ALL, merged.overlap(3, 1000, 1499));
        assertEquals(MergedBatches.Overlap.NONE, merged.overlap(3, 1_000_000, 1_000_499));
        assertEquals(MergedBatches.Overlap.NONE, merged.overlap(4, 0, 10), "another partition");
    }

    @Test
    void gapsOverlapsAndReorderingAreTold() {
        MergedBatches merged = new MergedBatches();
        merged.add(0, 100, 199);
        merged.add(0, 300, 399); // 200..299 in flight (a gap)
        assertEquals(2, merged.runs());
        assertEquals(MergedBatches.Overlap.NONE, merged.overlap(0, 200, 299));
        assertEquals(MergedBatches.Overlap.PART, merged.overlap(0, 150, 249), "read again with other boundaries");
        assertEquals(MergedBatches.Overlap.PART, merged.overlap(0, 250, 350));
        assertEquals(MergedBatches.Overlap.ALL, merged.overlap(0, 150, 150), "one record read again");
        merged.add(0, 200, 299); // the gap filled late
        assertEquals(1, merged.runs());
        assertEquals(MergedBatches.Overlap.ALL, merged.overlap(0, 100, 399));
    }

    @Test
    void aRestartedReaderReadingFromAnOlderCommitIsToldRecordByRecord() {
        MergedBatches merged = new MergedBatches();
        merged.add(1, 0, 999);
        merged.add(1, 1000, 1499); // merged, acked, not yet committed when the reader died
        // the new reader reads again from the commit at 1000, up to the old limit, record by record
        int dropped = 0;
        for (long offset = 1000; offset < 2000; offset++) {
            if (merged.overlap(1, offset, offset) == MergedBatches.Overlap.ALL) {
                dropped++;
            } else {
                merged.add(1, offset, offset);
            }
        }
        assertEquals(500, dropped);
        assertEquals(1, merged.runs());
    }

    @Property(tries = 300)
    void agreesWithANaiveSetOfOffsets(@ForAll long seed, @ForAll @IntRange(min = 1, max = 200) int steps) {
        Random random = new Random(seed);
        MergedBatches merged = new MergedBatches();
        Map<Long, TreeSet<Long>> naive = new HashMap<>();
        for (int i = 0; i < steps; i++) {
            long source = random.nextInt(3);
            long first = random.nextInt(400);
            long last = first + random.nextInt(random.nextBoolean() ? 3 : 60);
            TreeSet<Long> set = naive.computeIfAbsent(source, s -> new TreeSet<>());
            int inside = set.subSet(first, true, last, true).size();
            long length = last - first + 1;
            MergedBatches.Overlap expected = inside == 0 ? MergedBatches.Overlap.NONE
                    : inside == length ? MergedBatches.Overlap.ALL : MergedBatches.Overlap.PART;
            assertEquals(expected, merged.overlap(source, first, last), "span " + source + ":" + first + ".." + last);
            if (random.nextInt(4) > 0) {
                merged.add(source, first, last);
                for (long o = first; o <= last; o++) {
                    set.add(o);
                }
            }
        }
        int naiveRuns = 0;
        for (TreeSet<Long> set : naive.values()) {
            List<Long> sorted = new ArrayList<>(set);
            for (int i = 0; i < sorted.size(); i++) {
                if (i == 0 || sorted.get(i) != sorted.get(i - 1) + 1) {
                    naiveRuns++;
                }
            }
        }
        assertEquals(naiveRuns, merged.runs(), "runs are maximal: adjacent and overlapping spans are joined");
        assertTrue(merged.runs() <= steps);
    }
}
