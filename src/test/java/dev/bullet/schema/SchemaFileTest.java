package dev.bullet.schema;

import dev.bullet.BulletException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaFileTest {
    private static SchemaField sub(SchemaField f, String name) {
        return f.fields().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theWebServicesColumnsFormatIsRead() {
        List<String> problems = new ArrayList<>();
        SchemaSnapshot s = SchemaFile.parse("""
                [{"name": "probability", "type": "DOUBLE", "description": "Generated from Random#nextDouble"},
                 {"name": "stats_map", "type": "MAP", "subtype": "LONG", "description": "Numbers",
                  "enumerations": [{"name": "nano_time", "description": "The ns time"}, {"name": "period_count"}]},
                 {"name": "classifiers", "type": "LIST", "subtype": "MAP"}]""", problems, 7);
        assertEquals(List.of(), problems);
        assertTrue(s.ready());
        assertEquals(List.of("probability", "stats_map", "classifiers"), s.fields().stream().map(SchemaField::name).toList(),
                     "a file's order is kept");
        assertEquals("Generated from Random#nextDouble", s.field("probability").description());
        assertNull(s.field("probability").presence());
        SchemaField stats = s.field("stats_map");
        assertEquals("MAP", stats.type());
        assertEquals("LONG", stats.subtype());
        assertEquals("The ns time", sub(stats, "nano_time").description());
        assertEquals("LONG", sub(stats, "nano_time").type());
        assertEquals(2, stats.enumerations().size());
        assertEquals("LIST", s.field("classifiers").type());
        assertEquals("MAP", s.field("classifiers").subtype());
    }

    @Test
    void bulletRecordsSchemaWithWholeTypesAndSubfieldsIsRead() throws IOException {
        // bullet-record 1.2's test-schema.json, in part
        List<String> problems = new ArrayList<>();
        SchemaSnapshot s = SchemaFile.parse("""
                [{"name": "g", "type": "STRING_LIST"},
                 {"name": "i", "type": "FLOAT_MAP_MAP"},
                 {"name": "j", "type": "INTEGER_MAP_LIST"},
                 {"name": "l", "type": "INTEGER_MAP", "description": "a map of integers",
                  "subFields": [{"name": "a"}, {"name": "b", "description": ""}, {"name": "c", "description": "an int"}]},
                 {"name": "m", "type": "STRING_MAP_MAP", "description": "map of maps",
                  "subFields": [{"name": "A", "description": "a map"}], "subSubFields": [{"name": "a", "description": "s"}]},
                 {"name": "n", "type": "LONG_MAP_MAP", "description": "x", "subSubFields": [{"name": "a"}]},
                 {"name": "o", "type": "FLOAT_MAP_LIST", "description": "list of maps",
                  "subListFields": [{"name": "a", "description": "a float"}]}]""", problems, 7);
        assertEquals(List.of(), problems);
        assertEquals("LIST", s.field("g").type());
        assertEquals("STRING", s.field("g").subtype());
        assertEquals("MAP", s.field("i").type());
        assertEquals("FLOAT_MAP", s.field("i").subtype());
        assertEquals("INTEGER_MAP", s.field("j").subtype());
        assertEquals(List.of("a", "b", "c"), s.field("l").fields().stream().map(SchemaField::name).toList());
        assertEquals("INTEGER", sub(s.field("l"), "c").type());
        SchemaField a = sub(s.field("m"), "A");
        assertEquals("MAP", a.type());
        assertEquals("STRING", sub(a, "a").type());
        assertEquals("LONG", sub(sub(s.field("n"), "*"), "a").type(), "any key of n holds a map with a");
        assertEquals("FLOAT", sub(s.field("o"), "a").type());
    }

    @Test
    void everyProblemOfABadFileIsNamedAndTheFileIsRefusedAtStart(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "[{\"name\": \"a\", \"type\": \"NUMBER\"}, {\"type\": \"STRING\"}, 5, "
                                + "{\"name\": \"b\", \"type\": \"LONG\", \"colour\": \"red\"}]");
        BulletException e = assertThrows(BulletException.class, () -> SchemaFile.load(file.toString(), 1));
        assertTrue(e.getMessage().contains("bullet.schema.file"), e.getMessage());
        assertTrue(e.getMessage().contains("unknown type \"NUMBER\""), e.getMessage());
        assertTrue(e.getMessage().contains("field 1 needs a non-empty string \"name\""), e.getMessage());
        assertTrue(e.getMessage().contains("field 2 is not an object"), e.getMessage());
        assertTrue(e.getMessage().contains("\"colour\""), e.getMessage());
        assertThrows(BulletException.class, () -> SchemaFile.load(dir.resolve("missing.json").toString(), 1));
        Files.writeString(file, "{\"name\": \"a\"}");
        assertThrows(BulletException.class, () -> SchemaFile.load(file.toString(), 1));
        Files.writeString(file, "[{\"name\": ");
        assertThrows(BulletException.class, () -> SchemaFile.load(file.toString(), 1));
    }

    @Test
    void aFileIsReadFromAPathOrTheClasspath(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("s.json");
        Files.writeString(file, "[{\"name\": \"a\", \"type\": \"STRING\"}]");
        assertEquals("STRING", SchemaFile.load(file.toString(), 1).field("a").type());
        assertEquals("LONG", SchemaFile.load("schema/sample_schema.json", 1).field("l_0").type());
    }
}
