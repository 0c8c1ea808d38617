package dev.bullet.bench;

import com.google.gson.JsonParser;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A benchmark's queries file read in each of the forms it may take. */
class QueryFileTest {
    private static final String COUNT =
            "{\"filters\":[{\"field\":\"s_00\",\"operation\":\"!=\",\"values\":[\"alpha\"]}],"
            + "\"aggregation\":{\"type\":\"GROUP\",\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}}}";
    private static final String RAW = "{\"aggregation\":{\"type\":\"RAW\",\"size\":10}}";
    private static final String TOP = "SELECT TOP(10, s_01) FROM STREAM(30000, TIME) WHERE l_1 > 5000";

    @TempDir
    Path dir;

    private List<String> read(String text) throws IOException {
        Path file = dir.resolve("queries");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return QueryFile.read(file);
    }

    @Test
    void aQueryALineInJsonOrBqlIsReadLineByLine() throws IOException {
        assertEquals(List.of(COUNT, RAW, TOP), read(COUNT + "\n\n" + RAW + "\r\n" + TOP + "\n"));
        assertEquals(List.of(TOP, TOP), read("\n" + TOP + "\n" + TOP));
        assertEquals(List.of(" " + RAW + " ", COUNT), read(" " + RAW + " \n" + COUNT + "\n"));
        assertEquals(List.of(RAW, TOP), read("\uFEFF" + RAW + "\n" + TOP + "\n")); // a byte order mark first
    }

    @Test
    void bqlStatementsEndedBySemicolonsAreReadStatementByStatement() throws IOException {
        assertEquals(List.of(TOP, TOP), read(TOP + ";\n" + TOP + ";\n"));
        String multiLine = "SELECT COUNT(*)\n  FROM STREAM(30000, TIME)\n  WHERE s_00 = 'a;b' AND s_01 != 'it''s;'";
        assertEquals(List.of(multiLine, TOP), read(multiLine + ";\n\n" + TOP + "  ;\n"));
        assertEquals(List.of(multiLine, TOP), read(multiLine + ";\n" + TOP)); // the last one may go without
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        assertTrue(parser.parse(multiLine).isValid(), multiLine);
    }

    @Test
    void jsonLinesBetweenBqlStatementsAreQueriesOfTheirOwn() throws IOException {
        assertEquals(List.of(COUNT, RAW, TOP, TOP), read(COUNT + "\n" + RAW + "\n" + TOP + ";\n" + TOP + ";\n"));
        String multiLine = "SELECT COUNT(*)\n  FROM STREAM(30000, TIME)";
        assertEquals(List.of(multiLine, COUNT, TOP), read(multiLine + ";\n  " + COUNT + "  \n" + TOP + ";"));
        assertEquals(List.of(TOP + "\n" + RAW), read(TOP + "\n" + RAW + ";\n")); // within a statement it is text
    }

    @Test
    void anArrayOfQueriesOrOfBqlTextsIsReadElementByElement() throws IOException {
        assertEquals(List.of(COUNT, RAW), read("[" + COUNT + ", " + RAW + "]"));
        assertEquals(List.of(TOP, TOP), read("[\"" + TOP + "\",\n \"" + TOP + "\"]\n"));
        assertEquals(List.of(COUNT, TOP), read("[" + COUNT + ",\"" + TOP + "\"]"));
    }

    @Test
    void queriesWrittenOverSeveralLinesAreReadAsJsonValues() throws IOException {
        String pretty = "{\n  \"aggregation\": {\n    \"type\": \"RAW\",\n    \"size\": 10\n  }\n}\n";
        assertEquals(List.of(RAW, RAW), read(pretty + pretty));
        String prettyArray = "[\n  " + COUNT + ",\n  {\n    \"aggregation\": {\"type\": \"RAW\", \"size\": 10}\n  }\n]\n";
        List<String> queries = read(prettyArray);
        assertEquals(List.of(COUNT, RAW), queries);
        QueryParser parser = new QueryParser(QuerySettings.defaults());
        for (String query : queries) {
            assertTrue(parser.parse(query).isValid(), query);
        }
    }

    @Test
    void aFileThatIsNotJsonValuesIsReadLineByLineSoEachBadLineIsReported() throws IOException {
        String truncated = "{\"aggregation\":{\"type\":\"RAW\"";
        assertEquals(List.of(RAW, truncated, COUNT), read(RAW + "\n" + truncated + "\n" + COUNT + "\n"));
        assertEquals(List.of("[1, 2]"), read("[1, 2]\n"));
        assertEquals(List.of("[" + RAW, COUNT), read("[" + RAW + "\n" + COUNT + "\n"));
        // a pretty query followed by BQL: the BQL is no JSON value, so the file is lines
        assertEquals(List.of("{", "  \"aggregation\": {\"type\": \"RAW\"}", "}", TOP),
                     read("{\n  \"aggregation\": {\"type\": \"RAW\"}\n}\n" + TOP + "\n"));
        assertEquals(List.of("{", "  \"aggregation\": {\"type\": \"RAW\"}", "}", "bogus"),
                     read("{\n  \"aggregation\": {\"type\": \"RAW\"}\n}\nbogus\n"));
    }

    @Test
    void aQueryTheArrayHoldsIsTheSameQuery() throws IOException {
        String withEscapes = "{\"filters\":[{\"field\":\"s\",\"operation\":\"==\",\"values\":[\"a\\\"b\\u00e9\"]}],"
                             + "\"aggregation\":{\"type\":\"RAW\",\"size\":1e1}}";
        List<String> queries = read("[" + withEscapes + "]");
        assertEquals(1, queries.size());
        assertEquals(JsonParser.parseString(withEscapes), JsonParser.parseString(queries.get(0)));
    }

    @Test
    void aFileWithoutQueriesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> read("\n \n"));
        assertThrows(IllegalArgumentException.class, () -> read("[]"));
    }
}
