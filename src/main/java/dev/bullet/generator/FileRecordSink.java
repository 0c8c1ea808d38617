package dev.bullet.generator;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes records as JSON lines to a file or to stdout ({@code --out}), instead of Kafka. */
final class FileRecordSink implements RecordSink {
    private static final int BUFFER_BYTES = 1 << 18;
    /** How often (in records) a {@link PrintStream}, which hides its write errors, is asked for them. */
    private static final int ERROR_CHECK_INTERVAL = 1024;

    private final OutputStream out;
    private final boolean closeUnderlying;
    private final PrintStream silentStream;
    private final String description;
    private long written;

    private FileRecordSink(OutputStream out, boolean closeUnderlying, String description) {
        this.out = new BufferedOutputStream(out, BUFFER_BYTES);
        this.closeUnderlying = closeUnderlying;
        this.silentStream = out instanceof PrintStream print ? print : null;
        this.description = description;
    }

    /** A sink that creates or truncates {@code path}. */
    static FileRecordSink toFile(Path path) throws SinkException {
        try {
            return new FileRecordSink(Files.newOutputStream(path), true, "file " + path);
        } catch (IOException e) {
            throw new SinkException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * A sink on an already open stream (stdout), which it flushes but never closes. Write errors of a
     * {@link PrintStream} (e.g. the reader of a pipe went away) fail the sink within a few records.
     */
    static FileRecordSink toStream(OutputStream stream, String description) {
        return new FileRecordSink(stream, false, description);
    }

    @Override
    public void send(byte[] record) throws SinkException {
        try {
            out.write(record);
            out.write('\n');
            written++;
        } catch (IOException e) {
            throw new SinkException("cannot write to " + description + ": " + e.getMessage(), e);
        }
        if (silentStream != null && written % ERROR_CHECK_INTERVAL == 0) {
            throwIfStreamFailed();
        }
    }

    @Override
    public void flush() throws SinkException {
        try {
            out.flush();
        } catch (IOException e) {
            throw new SinkException("cannot write to " + description + ": " + e.getMessage(), e);
        }
        throwIfStreamFailed();
    }

    @Override
    public long delivered() {
        return written;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() throws SinkException {
        try {
            if (closeUnderlying) {
                out.close();
            } else {
                out.flush();
            }
        } catch (IOException e) {
            throw new SinkException("cannot close " + description + ": " + e.getMessage(), e);
        }
    }

    private void throwIfStreamFailed() throws SinkException {
        if (silentStream != null && silentStream.checkError()) {
            throw new SinkException("cannot write to " + description + " (closed?)");
        }
    }
}
