package dev.bullet.query;

import com.google.gson.stream.JsonReader;
import dev.bullet.common.BulletError;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns gson's messages about malformed JSON into one error that says what was found where (line, column). */
final class MalformedJson {
    private static final Pattern GSON_POSITION = Pattern.compile("line (\\d+) column (\\d+)");

    private MalformedJson() {
    }

    static String position(JsonReader reader) {
        Matcher m = GSON_POSITION.matcher(reader.toString());
        return m.find() ? "line " + m.group(1) + " column " + m.group(2) : "the end of the query";
    }

    static BulletError error(Exception e, String json) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null) {
            message = cause.getMessage();
        }
        Matcher m = GSON_POSITION.matcher(message);
        if (!m.find()) {
            String reason = message.contains("End of input") ? "unexpected end of input" : "not valid JSON";
            return BulletError.of("Malformed JSON: " + reason, "Send the query as one JSON object");
        }
        int line = Integer.parseInt(m.group(1));
        int column = Integer.parseInt(m.group(2));
        String where = " at line " + line + ", column " + column;
        String reason;
        if (message.contains("End of input")) {
            reason = "unexpected end of input";
        } else if (message.contains("Unexpected content after the query")) {
            reason = "unexpected content after the query";
        } else {
            String found = charAt(json, line, column);
            String gsonReason = message.replaceAll("(?s)\\s*See https?://\\S+", "").replaceAll("\\s+path \\$\\S*", "")
                                       .replaceAll("\\s*at line \\d+ column \\d+.*", "").trim();
            boolean hint = gsonReason.contains("setStrictness") || gsonReason.isEmpty();
            reason = (hint ? "unexpected " : gsonReason.substring(0, 1).toLowerCase(Locale.ROOT) + gsonReason.substring(1)
                             + ", found ") + (found == null ? "end of input" : "'" + found + "'");
        }
        return BulletError.of("Malformed JSON" + where + ": " + reason,
                              "Fix the JSON" + where + ": double-quote keys and strings, no trailing commas, lowercase "
                              + "true/false/null");
    }

    /** The character at a 1-based line and column of the text (gson counts columns from 1), or null past the end. */
    private static String charAt(String text, int line, int column) {
        int offset = 0;
        for (int l = 1; l < line; l++) {
            int next = text.indexOf('\n', offset);
            if (next < 0) {
                return null;
            }
            offset = next + 1;
        }
        int lineEnd = text.indexOf('\n', offset);
        lineEnd = lineEnd < 0 ? text.length() : lineEnd;
        // past the end of a line gson means the line's last character (it counts after consuming it)
        int index = Math.min(offset + column - 1, lineEnd - 1);
        return index >= offset && index < text.length() ? String.valueOf(text.charAt(index)) : null;
    }
}
