package dev.bullet.rest;

import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.PubSubMessage.Delivery;
import dev.bullet.pubsub.Signal;
import dev.bullet.record.JsonCodec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Joining chunks, dropping second copies, and the bounds on what is held while joining. */
class ResultAssemblyTest {
    private static PubSubMessage chunk(String query, String delivery, int i, int n, String text, Signal signal) {
        return new PubSubMessage(query, text, signal, 0, new Delivery(delivery, i, n));
    }

    @Test
    void chunksAreJoinedIntoOneResult() {
        ResultAssembly assembly = new ResultAssembly(100, 200);
        assertNull(assembly.accept(chunk("q", "d1", 0, 3, "{\"rec", Signal.COMPLETE)));
        assertNull(assembly.accept(chunk("q", "d1", 1, 3, "ords\":", Signal.COMPLETE)));
        assertEquals(11, assembly.buffered());
        PubSubMessage whole = assembly.accept(chunk("q", "d1", 2, 3, "[]}", Signal.COMPLETE));
        assertEquals("{\"records\":[]}", whole.payload());
        assertEquals(Signal.COMPLETE, whole.signal());
        assertEquals(0, assembly.buffered());
    }

    @Test
    void chunksOfTwoResultsOfOneQueryMayInterleave() {
        ResultAssembly assembly = new ResultAssembly(100, 200);
        assertNull(assembly.accept(chunk("q", "a", 0, 2, "A1", null)));
        assertNull(assembly.accept(chunk("q", "b", 0, 2, "B1", null)));
        assertEquals("B1B2", assembly.accept(chunk("q", "b", 1, 2, "B2", null)).payload());
        assertEquals("A1A2", assembly.accept(chunk("q", "a", 1, 2, "A2", null)).payload());
    }

    @Test
    void aSecondCopyOfAResultIsDropped() {
        ResultAssembly assembly = new ResultAssembly(100, 200);
        PubSubMessage result = new PubSubMessage("q", "{\"records\":[1]}", null, 0, Delivery.whole("d1"));
        assertEquals(result, assembly.accept(result));
        assertNull(assembly.accept(result));
        PubSubMessage other = new PubSubMessage("q", "{\"records\":[2]}", null, 0, Delivery.whole("d2"));
        assertEquals(other, assembly.accept(other));
        PubSubMessage sameIdOtherQuery = new PubSubMessage("r", "{}", null, 0, Delivery.whole("d1"));
        assertEquals(sameIdOtherQuery, assembly.accept(sameIdOtherQuery));
        assertEquals(1, assembly.duplicates());
        // a chunked one sent twice: the second copy's chunks are dropped too
        assertNull(assembly.accept(chunk("q", "d3", 0, 2, "x", null)));
        assertNotNull(assembly.accept(chunk("q", "d3", 1, 2, "y", null)));
        assertNull(assembly.accept(chunk("q", "d3", 0, 2, "x", null)));
        assertNull(assembly.accept(chunk("q", "d3", 1, 2, "y", null)));
        assertEquals(0, assembly.buffered());
    }

    @Test
    void aSendTriedAgainFromItsFirstChunkStartsOver() {
        ResultAssembly assembly = new ResultAssembly(100, 200);
        assertNull(assembly.accept(chunk("q", "d", 0, 3, "aa", null)));
        assertNull(assembly.accept(chunk("q", "d", 1, 3, "bb", null)));
        assertNull(assembly.accept(chunk("q", "d", 0, 3, "aa", null)));
        assertEquals(2, assembly.buffered());
        assertNull(assembly.accept(chunk("q", "d", 1, 3, "bb", null)));
        assertEquals("aabbcc", assembly.accept(chunk("q", "d", 2, 3, "cc", null)).payload());
    }

    @Test
    void aResultLargerThanOneMayBeBecomesAnErrorForItsQuery() {
        ResultAssembly assembly = new ResultAssembly(5, 200);
        assertNull(assembly.accept(chunk("q", "d", 0, 3, "aaa", Signal.COMPLETE)));
        PubSubMessage error = assembly.accept(chunk("q", "d", 1, 3, "bbb", Signal.COMPLETE));
        assertEquals(Signal.COMPLETE, error.signal());
        String text = firstError(error.payload());
        assertTrue(text.contains("more than the 5 bytes"), text);
        assertNull(assembly.accept(chunk("q", "d", 2, 3, "ccc", Signal.COMPLETE)), "the rest is dropped");
        assertEquals(0, assembly.buffered());
    }

    @Test
    void resultsBeingJoinedTogetherAreBounded() {
        ResultAssembly assembly = new ResultAssembly(10, 12);
        assertNull(assembly.accept(chunk("q1", "d", 0, 2, "12345678", null)));
        PubSubMessage error = assembly.accept(chunk("q2", "e", 0, 2, "12345678", null));
        assertTrue(firstError(error.payload()).contains("together held more than 12 bytes"), error.payload());
        assertEquals("12345678ab", assembly.accept(chunk("q1", "d", 1, 2, "ab", null)).payload());
    }

    @Test
    void aChunkOutOfSequenceDropsItsResult() {
        ResultAssembly assembly = new ResultAssembly(100, 200);
        assertNull(assembly.accept(chunk("q", "d", 1, 3, "bb", null)), "no first chunk");
        assertNull(assembly.accept(chunk("q", "d", 0, 3, "aa", null)));
        assertNull(assembly.accept(chunk("q", "d", 2, 3, "cc", null)), "chunk 1 missing");
        assertEquals(0, assembly.buffered());
    }

    @Test
    void endedQueriesAreForgotten() {
        ResultAssembly assembly = new ResultAssembly(100, 200);
        assembly.accept(chunk("gone", "d", 0, 2, "aa", null));
        assembly.accept(new PubSubMessage("kept", "{}", null, 0, Delivery.whole("d")));
        assertEquals(2, assembly.queries());
        assembly.retain("kept"::equals);
        assertEquals(1, assembly.queries());
        assertEquals(0, assembly.buffered());
        assertNull(assembly.accept(new PubSubMessage("kept", "{}", null, 0, Delivery.whole("d"))));
    }

    @Test
    void aMessageWithoutDeliveryPassesAsItIs() {
        ResultAssembly assembly = new ResultAssembly(1, 1);
        PubSubMessage plain = new PubSubMessage("q", "{\"records\":[]}", Signal.COMPLETE, 0);
        assertEquals(plain, assembly.accept(plain));
        assertEquals(plain, assembly.accept(plain));
    }

    @SuppressWarnings("unchecked")
    private static String firstError(String json) {
        Map<String, Object> result = JsonCodec.parseMap(json);
        Map<String, Object> meta = (Map<String, Object>) result.get("meta");
        List<Map<String, Object>> errors = (List<Map<String, Object>>) meta.get("errors");
        return (String) errors.get(0).get("error");
    }
}
