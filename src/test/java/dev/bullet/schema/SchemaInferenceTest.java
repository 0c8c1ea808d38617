package dev.bullet.schema;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaInferenceTest {
    private static List<JsonObject> records(String... json) {
        List<JsonObject> out = new ArrayList<>();
        for (String j : json) {
            out.add(JsonParser.parseString(j).getAsJsonObject());
        }
        return out;
    }

    private static SchemaField sub(SchemaField f, String name) {
        return f.fields().stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    @Test
    void typesAndPresenceOfTopLevelFieldsAreInferredFromTheSample() {
        SchemaInference inference = new SchemaInference(5);
        inference.accept(records("{\"id\":\"a\",\"n\":1,\"d\":1.5,\"ok\":true}", "{\"id\":\"b\",\"n\":2}",
                                 "{\"id\":\"c\",\"n\":3,\"gone\":null}", "{\"id\":\"d\"}"), 1_000);
        SchemaSnapshot s = inference.snapshot();
        assertTrue(s.ready());
        assertEquals(4, s.recordsSampled());
        assertEquals(List.of("d", "gone", "id", "n", "ok"), s.fields().stream().map(SchemaField::name).toList());
        assertEquals("STRING", s.field("id").type());
        assertEquals(1.0, s.field("id").presence());
        assertEquals("LONG", s.field("n").type());
        assertEquals(0.75, s.field("n").presence());
        assertEquals("DOUBLE", s.field("d").type());
        assertEquals(0.25, s.field("d").presence());
        assertEquals("BOOLEAN", s.field("ok").type());
        assertEquals("NULL", s.field("gone").type(), "a field only ever null has no better type");
        assertEquals(1_000, s.updated());
    }

    @Test
    void aFieldThatChangesTypeListsEachTypeWithItsShare() {
        SchemaInference inference = new SchemaInference(5);
        inference.accept(records("{\"v\":1}", "{\"v\":2}", "{\"v\":3}", "{\"v\":\"three\"}"), 1);
        SchemaField v = inference.snapshot().field("v");
        assertEquals("LONG", v.type(), "the most frequent type");
        assertEquals(Map.of("LONG", 0.75, "STRING", 0.25), v.types());
        assertTrue(v.mayBePrimitive());
        assertFalse(v.mayBeContainer());
    }

    @Test
    void nestedMapsAndListsHaveTheirSubfieldsAndSubtypes() {
        SchemaInference inference = new SchemaInference(5);
        inference.accept(records(
                "{\"m\":{\"a\":1,\"b\":2},\"tags\":[\"x\",\"y\"],\"events\":[{\"k\":\"p\",\"t\":1},{\"k\":\"q\"}],"
                + "\"mm\":{\"inner\":{\"z\":true}}}",
                "{\"m\":{\"a\":5},\"tags\":[],\"events\":[]}"), 1);
        SchemaSnapshot s = inference.snapshot();
        SchemaField m = s.field("m");
        assertEquals("MAP", m.type());
        assertEquals("LONG", m.subtype());
        assertEquals(1.0, sub(m, "a").presence(), "a key's presence is a share of the maps");
        assertEquals(0.5, sub(m, "b").presence());
        SchemaField tags = s.field("tags");
        assertEquals("LIST", tags.type());
        assertEquals("STRING", tags.subtype());
        assertTrue(tags.fields().isEmpty());
        SchemaField events = s.field("events");
        assertEquals("LIST", events.type());
        assertEquals("MAP", events.subtype());
        assertEquals(1.0, sub(events, "k").presence(), "the keys of a list's maps, a share of those maps");
        assertEquals(0.5, sub(events, "t").presence());
        SchemaField inner = sub(s.field("mm"), "inner");
        assertEquals("MAP", inner.type());
        assertEquals("BOOLEAN", sub(inner, "z").type());
    }

    @Test
    void aNewFieldAppearsWithTheFirstSampleThatHoldsItAndOldSamplesAgeOut() {
        SchemaInference inference = new SchemaInference(2);
        inference.accept(records("{\"a\":1}", "{\"a\":2}"), 1);
        assertNull(inference.snapshot().field("b"));
        inference.accept(records("{\"a\":1,\"b\":\"new\"}", "{\"a\":2}"), 2);
        assertEquals(0.25, inference.snapshot().field("b").presence(), "1 record of the 4 in the two samples");
        inference.accept(records("{\"a\":1}"), 3);
        inference.accept(records("{\"a\":1}"), 4);
        assertNull(inference.snapshot().field("b"), "in none of the last two samples");
        assertEquals(2, inference.snapshot().samples());
    }

    @Test
    void anEmptySampleIsNotKept() {
        SchemaInference inference = new SchemaInference(1);
        inference.accept(records("{\"a\":1}"), 1);
        inference.accept(List.of(), 2);
        assertNotNull(inference.snapshot().field("a"), "a quiet stream does not age the schema out");
        assertFalse(new SchemaInference(3).snapshot().ready());
    }

    @Test
    void fieldsBeyondTheBoundsAreLeftOutAndSaid() {
        SchemaInference inference = new SchemaInference(1);
        StringBuilder wide = new StringBuilder("{\"m\":{");
        for (int i = 0; i < FieldStats.MAX_KEYS + 50; i++) {
            wide.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
        }
        wide.append("}}");
        inference.accept(records(wide.toString()), 1);
        SchemaSnapshot s = inference.snapshot();
        assertEquals(FieldStats.MAX_KEYS, s.field("m").fields().size());
        assertTrue(s.truncated());
    }
}
