package dev.bullet.rest;

import io.undertow.server.handlers.sse.ServerSentEventConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;
import org.xnio.XnioIoThread;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One sse-query stream: each result of the query becomes one {@code data:} event (the result JSON on one line);
 * after the final result (or the error that ended the query) the stream is closed.
 *
 * <p>Results may arrive before the event stream is open (the query is published first, so that a refusal can
 * still be an HTTP error); they are held until {@link #connected}. Keep-alive comments go out every
 * {@code bullet.rest.sse.keepalive.ms}; writing to a client that went away fails within one or two of them, the
 * connection closes, and {@link #clientClosed()} reports the loss (once, and only if the query had not ended) so
 * that the query is killed. A client that reads slower than its results come is treated alike: when a result arrives
 * while more than {@link #MAX_UNDELIVERED_CHARS} of the earlier ones are still unwritten, the stream closes and the
 * query is killed, so a slow reader cannot hold the service's memory (one result, however large, is always taken when
 * the earlier ones are out). Nor can many: when the streams of the service together hold more than
 * {@link #UNDELIVERED_BUDGET} unwritten, a stream that still has some unwritten when its next result comes is closed
 * alike. Thread-safe.
 */
final class SseStream implements QueryListener {
    private static final Logger LOG = LoggerFactory.getLogger(SseStream.class);
    /** How long a finished stream may take to deliver its last event before it is closed anyway. */
    private static final long CLOSE_GRACE_SECONDS = 30;
    /** Characters of results a stream may hold unwritten when the next one comes (16 Mi). */
    static final long MAX_UNDELIVERED_CHARS = 16L << 20;
    /**
     * Characters all the streams of this JVM may hold unwritten before a lagging one is closed: an eighth of the heap
     * (a character is a byte in its event and about one more in the connection's buffer).
     */
    static final long UNDELIVERED_BUDGET = Runtime.getRuntime().maxMemory() / 8;
    private static final AtomicLong ALL_UNDELIVERED = new AtomicLong();

    private final String id;
    /** The tenant the query runs for, named in log lines. */
    private final String tenant;
    private final long keepAliveMs;
    private final XnioIoThread ioThread;
    private final Consumer<String> onClientGone;
    private final List<String> pending = new ArrayList<>();
    private ServerSentEventConnection connection;
    private String lastEvent;
    /**
     * Set by the results' thread under the stream's lock, read without it: what Undertow's I/O thread calls back (a
     * write done, the connection closed) never takes the stream's lock, which is held while handing Undertow an event
     * (Undertow's own lock): one order of the two locks, no deadlock.
     */
    private volatile boolean ended;
    private final AtomicBoolean gone = new AtomicBoolean();
    private final Undelivered undelivered;

    /** @param onClientGone called with the query id when the client disconnects before the query ended */
    SseStream(String id, String tenant, long keepAliveMs, XnioIoThread ioThread, Consumer<String> onClientGone) {
        this.id = id;
        this.tenant = tenant;
        this.keepAliveMs = keepAliveMs;
        this.ioThread = ioThread;
        this.onClientGone = onClientGone;
        this.undelivered = new Undelivered(MAX_UNDELIVERED_CHARS);
    }

    /**
     * The characters of the events handed to the connection and not yet written: whether the next may go (false when
     * more than the bound wait, so the client reads too slowly). Admitted under the stream's lock, written off by
     * Undertow's I/O thread without it.
     */
    static final class Undelivered {
        private final long max;
        private final AtomicLong chars = new AtomicLong();
        /** The unwritten characters of every stream of the service, and how many they may be before laggers close. */
        private final AtomicLong all;
        private final long budget;

        Undelivered(long max) {
            this(max, ALL_UNDELIVERED, UNDELIVERED_BUDGET);
        }

        Undelivered(long max, AtomicLong all, long budget) {
            this.max = max;
            this.all = all;
            this.budget = budget;
        }

        /**
         * Whether an event of {@code length} may be handed over now; counts it when it may. Not when more than the
         * stream's bound waits, nor when the service's streams together hold more than their budget and this one has
         * anything unwritten (it lags: the streams that keep up go on).
         */
        boolean admit(int length) {
            long waiting = chars.get();
            if (waiting > max || waiting > 0 && all.get() > budget) {
                return false;
            }
            chars.addAndGet(length);
            all.addAndGet(length);
            return true;
        }

        /** An event of {@code length} was written (or failed): no longer waiting. */
        void written(int length) {
            chars.addAndGet(-length);
            all.addAndGet(-length);
        }

        long chars() {
            return chars.get();
        }

        long allChars() {
            return all.get();
        }
    }

    /** The event stream is open: sends what arrived meanwhile. */
    synchronized void connected(ServerSentEventConnection opened) {
        connection = opened;
        opened.addCloseTask(closed -> clientClosed());
        if (gone.get()) {
            IoUtils.safeClose(opened);
            return;
        }
        opened.setKeepAliveTime(keepAliveMs);
        for (String event : pending) {
            send(event);
        }
        pending.clear();
        if (ended) {
            sendLast();
        }
    }

    @Override
    public synchronized void onResult(String resultJson) {
        if (gone.get() || ended) {
            return;
        }
        String event = oneLine(resultJson);
        if (connection == null) {
            pending.add(event); // until the stream opens, moments after the query was accepted
        } else if (!undelivered.admit(event.length())) {
            LOG.warn("Query {} of tenant {}: its sse-query client reads slower than its results come ({} characters"
                     + " unwritten, {} for all streams); the stream is closed and the query killed", id, tenant,
                     undelivered.chars(), undelivered.allChars());
            IoUtils.safeClose(connection); // reports the client gone: the query is killed
        } else {
            send(event);
        }
    }

    /** Hands an event to the connection, counted as unwritten until it is written. */
    private void send(String event) {
        int length = event.length();
        connection.send(event, new ServerSentEventConnection.EventCallback() {
            @Override
            public void done(ServerSentEventConnection c, String data, String event, String eventId) {
                undelivered.written(length); // on the I/O thread, holding Undertow's lock: not the stream's
            }

            @Override
            public void failed(ServerSentEventConnection c, String data, String event, String eventId, IOException e) {
                undelivered.written(length);
            }
        });
    }

    @Override
    public synchronized void onEnd(Ending ending, String resultJson) {
        if (gone.get() || ended) {
            return;
        }
        ended = true;
        lastEvent = oneLine(resultJson);
        if (connection != null) {
            sendLast();
        }
    }

    /**
     * The connection closed: if the query was still running, its client went away. Called on Undertow's I/O thread,
     * which may hold Undertow's lock: takes no lock of the stream's.
     */
    void clientClosed() {
        if (gone.compareAndSet(false, true) && !ended) {
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
