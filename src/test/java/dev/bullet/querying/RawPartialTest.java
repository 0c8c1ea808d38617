package dev.bullet.querying;

import dev.bullet.querying.aggregations.RawAggregator;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A RAW partial handed over as its rows is the partial the Filter always wrote: its rows are those the Join cut from
 * the aggregator's serialized partial of the same records, the rows read back from its bytes (the way between
 * workers) are the same again, and its bytes are the serialized partial's when no record has whitespace around it. Records as their own bytes (with the whitespace a producer
 * may put around them), projections, and maps.
 */
class RawPartialTest {
    private static final RecordDecoder DECODER = new RecordDecoder();

    private static String json(Random r) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int f = r.nextInt(6); f > 0; f--) {
            map.put("k" + r.nextInt(100), r.nextBoolean() ? (Object) ("v\u00e9" + r.nextInt(1_000)) : (Object) (long) r.nextInt());
        }
        String[] spaces = {"", " ", "\n", "\t ", "\r\n"};
        return spaces[r.nextInt(spaces.length)] + JsonCodec.toJson(map) + spaces[r.nextInt(spaces.length)];
    }

    private static List<String> asStrings(List<byte[]> rows) {
        List<String> out = new ArrayList<>();
        for (byte[] row : rows) {
            out.add(new String(row, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void isTheSerializedPartialOfTheSameRecordsWhicheverWayItTravels() {
        Random r = new Random(17L);
        int trimmed = 0;
        for (int round = 0; round < 500; round++) {
            // the room taken up front is sometimes less than the records that come: the list grows past it
            RawAggregator aggregator = new RawAggregator(Integer.MAX_VALUE, 1 + r.nextInt(12));
            for (int i = r.nextInt(20); i >= 0; i--) {
                String json = json(r);
                switch (r.nextInt(3)) {
                    case 0 -> aggregator.consume(DECODER.decode(json.getBytes(StandardCharsets.UTF_8))); // its bytes
                    case 1 -> aggregator.addJson(json.trim().getBytes(StandardCharsets.UTF_8)); // a projection
                    default -> aggregator.consume(RecordDecoder.decodeEagerly(json)); // a map
                }
            }
            byte[] serialized = aggregator.serialize();
            // the Filter hands its fresh array over (trimmed in place); a caller keeping its array gets a copy made
            RawPartial partial = r.nextBoolean() ? RawPartial.ofOwned(aggregator.rowsJson()) : RawPartial.of(aggregator.rowsJson());
            assertArrayEquals(serialized, aggregator.serialize(), "making the partial leaves the records' bytes as they were");
            List<String> cut = asStrings(JsonCodec.objects(serialized, Integer.MAX_VALUE));
            assertEquals(cut, asStrings(partial.rows()), "the rows the Join cut from the serialized partial");
            assertEquals(cut, asStrings(RawPartial.fromBytes(partial.bytes()).rows()), "between workers");
            if (cut.stream().mapToInt(String::length).sum() + cut.size() - 1 == serialized.length - 2 || cut.isEmpty()) {
                assertArrayEquals(serialized, partial.bytes(), "no whitespace around a record: the same bytes");
            }
            trimmed += cut.isEmpty() || Arrays.equals(serialized, partial.bytes()) ? 0 : 1;
        }
        assertTrue(trimmed > 50, "records with whitespace around them must be drawn: " + trimmed);
    }
}
