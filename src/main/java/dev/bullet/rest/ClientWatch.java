package dev.bullet.rest;

import io.undertow.connector.PooledByteBuffer;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.ServerConnection;
import io.undertow.server.protocol.http.HttpServerConnection;
import org.xnio.IoUtils;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Notices that the client of a waiting http-query went away, so that its query is killed (as an sse-query's is when
 * its stream breaks). While the query runs, Undertow reads nothing from the connection, so a closed connection would go
 * unnoticed until the answer is written; every {@value #PROBE_MS} ms this tries a non-blocking read of one byte on the
 * connection's own channel, on its IO thread: end of stream or an error means the client is gone. A byte read (the
 * client pipelines its next request) is given back to the connection and the watch stops. HTTP/1.1 only.
 */
final class ClientWatch {
    static final long PROBE_MS = 250;

    private ClientWatch() {
    }

    /** Starts watching; {@code onGone} runs once, on the IO thread, if the client goes before the answer starts. */
    static void start(HttpServerExchange exchange, Runnable onGone) {
        if (exchange.getConnection() instanceof HttpServerConnection) {
            schedule(exchange, onGone);
        }
    }

    private static void schedule(HttpServerExchange exchange, Runnable onGone) {
        exchange.getIoThread().executeAfter(() -> probe(exchange, onGone), PROBE_MS, TimeUnit.MILLISECONDS);
    }

    private static void probe(HttpServerExchange exchange, Runnable onGone) {
        if (exchange.isResponseStarted() || exchange.isComplete()) {
            return;
        }
        HttpServerConnection connection = (HttpServerConnection) exchange.getConnection();
        if (!connection.isOpen()) {
            onGone.run();
            return;
        }
        ByteBuffer one = ByteBuffer.allocate(1);
        int read;
        try {
            read = connection.getOriginalSourceConduit().read(one);
        } catch (IOException e) {
            read = -1;
        }
        if (read < 0) {
            IoUtils.safeClose((ServerConnection) connection);
            onGone.run();
        } else if (read > 0) {
            giveBack(connection, one);
        } else {
            schedule(exchange, onGone);
        }
    }

    private static void giveBack(HttpServerConnection connection, ByteBuffer read) {
        PooledByteBuffer pooled = connection.getByteBufferPool().allocate();
        read.flip();
        pooled.getBuffer().clear();
        pooled.getBuffer().put(read);
        pooled.getBuffer().flip();
        connection.ungetRequestBytes(pooled);
    }
}
