package dev.bullet.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The queries of a benchmark's {@code --queries-file}, each as the text the query parser takes (JSON or BQL). The file
 * holds one query a line (JSON or BQL; blank lines skipped); or BQL statements each ended by a semicolon, over one
 * or several lines, with JSON queries of one line each between them if any; or JSON values one after another:
 * queries as objects written over several lines, or a JSON array of them (objects, or BQL as strings). A file that
 * does not read as JSON values is taken a line at a time, so that each bad line is reported and skipped with the
 * parser's errors.
 */
final class QueryFile {
    private QueryFile() {
    }

    static List<String> read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) { // a byte order mark some editors write
            text = text.substring(1);
        }
        List<String> lines = new ArrayList<>();
        boolean objectPerLine = true;
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                lines.add(line);
                String query = line.strip();
                objectPerLine &= query.startsWith("{") && query.endsWith("}");
            }
        }
        String start = text.stripLeading();
        List<String> queries = null;
        if (start.startsWith("[") || start.startsWith("{") && !objectPerLine) {
            queries = jsonValues(text);
        }
        if (queries == null) {
            queries = endsStatements(lines) ? statements(text) : lines;
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no queries in " + file);
        }
        return queries;
    }

    /** Whether a line ends with a semicolon: then the queries are BQL statements, each ended by one. */
    private static boolean endsStatements(List<String> lines) {
        for (String line : lines) {
            if (line.strip().endsWith(";")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The BQL statements of a text, split at the semicolons outside quotes (a doubled quote inside is two); a line that
     * is a JSON object, between two statements, is a query of its own (a file of JSON lines and BQL statements).
     */
    private static List<String> statements(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        boolean inSingle = false;
        boolean inDouble = false;
        for (String line : text.split("\\R", -1)) {
            String query = line.strip();
            boolean between = !inSingle && !inDouble && pending.toString().isBlank();
            if (between && query.startsWith("{") && query.endsWith("}")) {
                out.add(query);
                pending.setLength(0);
                continue;
            }
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '\'' && !inDouble) {
                    inSingle = !inSingle;
                } else if (c == '"' && !inSingle) {
                    inDouble = !inDouble;
                } else if (c == ';' && !inSingle && !inDouble) {
                    addStatement(pending, out);
                    continue;
                }
                pending.append(c);
            }
            pending.append('\n');
        }
        addStatement(pending, out); // the last one may go without its semicolon
        return out;
    }

    private static void addStatement(StringBuilder pending, List<String> out) {
        String statement = pending.toString().strip();
        if (!statement.isEmpty()) {
            out.add(statement);
        }
        pending.setLength(0);
    }

    /** The queries of a text of JSON values, an array's elements each; null when it is not such a text. */
    private static List<String> jsonValues(String text) {
        List<String> out = new ArrayList<>();
        try (JsonReader reader = new JsonReader(new StringReader(text))) {
            reader.setStrictness(Strictness.LENIENT); // several top-level values
            while (reader.peek() != JsonToken.END_DOCUMENT) {
                JsonElement value = JsonParser.parseReader(reader);
                if (value.isJsonArray()) {
                    for (JsonElement element : value.getAsJsonArray()) {
                        if (!add(element, out)) {
                            return null;
                        }
                    }
                } else if (!value.isJsonObject() || !add(value, out)) {
                    return null; // a top-level text is no query: the file is lines
                }
            }
        } catch (IOException | JsonParseException | IllegalStateException e) {
            return null;
        }
        return out;
    }

    private static boolean add(JsonElement query, List<String> out) {
        if (query.isJsonObject()) {
            out.add(query.toString());
            return true;
        }
        if (query.isJsonPrimitive() && query.getAsJsonPrimitive().isString()) {
            out.add(query.getAsString()); // BQL
            return true;
        }
        return false;
    }
}
