package dev.bullet.rest;

import io.undertow.server.handlers.sse.ServerSentEventConnection;
import org.xnio.IoUtils;
import org.xnio.XnioIoThread;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One sse-query stream: each result of the query becomes one {@code data:} event (the result JSON on one line);
 * after the final result (or the error that ended the query) the stream is closed.
 *
 * <p>Results may arrive before the event stream is open (the query is published first, so that a refusal can
 * still be an HTTP error); they are held until {@link #connected}. Keep-alive comments go out every
 * {@code bullet.rest.sse.keepalive.ms}; writing to a client that went away fails within one or two of them, the
 * connection closes, and {@link #clientClosed()} reports the loss (once, and only if the query had not ended) so
 * that the query is killed. Thread-safe.
 */
final class SseStream implements QueryListener {
    /** How long a finished stream may take to deliver its last event before it is closed anyway. */
    private static final long CLOSE_GRACE_SECONDS = 30;

    private final String id;
    private final long keepAliveMs;
    private final XnioIoThread ioThread;
    private final Consumer<String> onClientGone;
    private final List<String> pending = new ArrayList<>();
    private ServerSentEventConnection connection;
    private String lastEvent;
    private boolean ended;
    private boolean gone;

    /** @param onClientGone called with the query id when the client disconnects before the query ended */
    SseStream(String id, long keepAliveMs, XnioIoThread ioThread, Consumer<String> onClientGone) {
        this.id = id;
        this.keepAliveMs = keepAliveMs;
        this.ioThread = ioThread;
        this.onClientGone = onClientGone;
    }

    /** The event stream is open: sends what arrived meanwhile. */
    synchronized void connected(ServerSentEventConnection opened) {
        connection = opened;
        opened.addCloseTask(closed -> clientClosed());
        if (gone) {
            IoUtils.safeClose(opened);
            return;
        }
        opened.setKeepAliveTime(keepAliveMs);
        for (String event : pending) {
            opened.send(event);
        }
        pending.clear();
        if (ended) {
            sendLast();
        }
    }

    @Override
    public synchronized void onResult(String resultJson) {
        if (gone || ended) {
            return;
        }
        String event = oneLine(resultJson);
        if (connection == null) {
            pending.add(event);
        } else {
            connection.send(event);
        }
    }

    @Override
    public synchronized void onEnd(Ending ending, String resultJson) {
        if (gone || ended) {
            return;
        }
        ended = true;
        lastEvent = oneLine(resultJson);
        if (connection != null) {
            sendLast();
        }
    }

    /** The connection closed: if the query was still running, its client went away. */
    void clientClosed() {
        boolean lost;
        synchronized (this) {
            lost = !ended && !gone;
            gone = true;
            pending.clear();
        }
        if (lost) {
            onClientGone.accept(id);
        }
    }

    private void sendLast() {
        ServerSentEventConnection open = connection;
        open.send(lastEvent, new ServerSentEventConnection.EventCallback() {
            @Override
            public void done(ServerSentEventConnection c, String data, String event, String eventId) {
                c.shutdown();
            }

            @Override
            public void failed(ServerSentEventConnection c, String data, String event, String eventId, IOException e) {
                IoUtils.safeClose(c);
            }
        });
        // shutdown() closes only once everything is written; a client that stopped reading is not waited for forever
        ioThread.executeAfter(() -> {
            if (open.isOpen()) {
                IoUtils.safeClose(open);
            }
        }, CLOSE_GRACE_SECONDS, TimeUnit.SECONDS);
    }

    /** A JSON text on one line: line breaks can only be whitespace between tokens, so they become spaces. */
    static String oneLine(String json) {
        return json.indexOf('\n') < 0 && json.indexOf('\r') < 0 ? json : json.replace("\r\n", " ").replace('\n', ' ')
                                                                           .replace('\r', ' ');
    }
}
