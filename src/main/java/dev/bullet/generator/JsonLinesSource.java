package dev.bullet.generator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The records of {@code --records FILE}: each non-blank line, in file order, as one message (UTF-8, line
 * ending removed). Lines are sent as they are, so a test can also send a malformed record on purpose; a
 * line that does not look like a JSON object ({@code {...}}) is sent too, with a warning.
 */
final class JsonLinesSource implements SendLoop.Source, AutoCloseable {
    private static final int MAX_WARNINGS = 10;

    private final BufferedReader reader;
    private final String name;
    private final PrintStream warnings;
    private long lineNumber;
    private long suspicious;

    JsonLinesSource(BufferedReader reader, String name, PrintStream warnings) {
        this.reader = reader;
        this.name = name;
        this.warnings = warnings;
    }

    @Override
    public byte[] next() throws IOException {
        String line;
        do {
            line = reader.readLine();
            lineNumber++;
            if (line == null) {
                return null;
            }
        } while (line.isBlank());
        String trimmed = line.strip();
        if (!(trimmed.startsWith("{") && trimmed.endsWith("}"))) {
            suspicious++;
            if (suspicious <= MAX_WARNINGS) {
                warnings.println("generate: warning: " + name + " line " + lineNumber
                    + " is not a JSON object; sent as it is");
            }
        }
        return line.getBytes(StandardCharsets.UTF_8);
    }

    /** Lines sent although they do not look like JSON objects. */
    long suspiciousLines() {
        return suspicious;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
