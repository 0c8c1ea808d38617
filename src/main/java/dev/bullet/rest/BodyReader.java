package dev.bullet.rest;

import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Reads a request body without blocking (on the IO thread), up to {@code bullet.rest.max.body.bytes}.
 *
 * <p>A larger body is answered with 413 without buffering it: a client that announced it and asked to
 * {@code Expect: 100-continue} (curl does for large bodies) is answered before it sends it; otherwise the body is
 * read and dropped, up to {@value #DRAIN_LIMIT} more bytes, so the client can read the 413 instead of a reset
 * connection. Beyond that the connection is closed.
 *
 * <p>The whole body must arrive within {@code bullet.rest.request.timeout.ms} of the start of its read: a client that
 * sends part of it and stalls (slowloris) gets 408 and its connection is closed, which gives back the place it held
 * under the query limits. Undertow bounds only the time to send the headers.
 */
final class BodyReader {
    /** Bytes past the limit read and dropped before answering 413; beyond, the connection is closed. */
    static final long DRAIN_LIMIT = 16L << 20;

    /** Gets the body as text (UTF-8, a leading byte order mark dropped). Runs on the IO thread, in a call. */
    interface Handler {
        void handle(HttpServerExchange exchange, String body) throws Exception;
    }

    private BodyReader() {
    }

    static void read(HttpServerExchange exchange, int maxBytes, long timeoutMs, Handler handler) {
        long announced = exchange.getRequestContentLength();
        String tooLarge = ErrorResults.of("The request body is larger than " + maxBytes
                                          + " bytes (bullet.rest.max.body.bytes)",
                                          "Send a smaller query, or raise bullet.rest.max.body.bytes");
        if (announced > maxBytes) {
            boolean expectsContinue = exchange.getRequestHeaders().contains(Headers.EXPECT);
            if (expectsContinue || announced > maxBytes + DRAIN_LIMIT) {
                exchange.setPersistent(false);
                Replies.json(exchange, StatusCodes.REQUEST_ENTITY_TOO_LARGE, tooLarge);
                return;
            }
        }
        exchange.setMaxEntitySize(maxBytes + DRAIN_LIMIT);
        ByteArrayOutputStream body = new ByteArrayOutputStream(announced > 0 ? (int) Math.min(announced, maxBytes) : 256);
        boolean[] over = {false};
        boolean[] ended = {false}; // read to its end, failed, or timed out; only touched on the exchange's IO thread
        XnioExecutor.Key deadline = exchange.getIoThread().executeAfter(() -> {
            if (!ended[0]) {
                ended[0] = true;
                timedOut(exchange, timeoutMs);
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
        exchange.getRequestReceiver().receivePartialBytes((ex, chunk, last) -> {
            if (ended[0]) {
                return;
            }
            if (!over[0]) {
                if (body.size() + chunk.length > maxBytes) {
                    over[0] = true;
                    body.reset();
                } else {
                    body.write(chunk, 0, chunk.length);
                }
            }
            if (!last) {
                return;
            }
            ended[0] = true;
            deadline.remove();
            if (over[0]) {
                ex.setPersistent(false);
                Replies.json(ex, StatusCodes.REQUEST_ENTITY_TOO_LARGE, tooLarge);
                return;
            }
            try {
                handler.handle(ex, text(body.toByteArray()));
            } catch (Exception | StackOverflowError | AssertionError e) {
                Replies.internalError(ex, e);
            }
        }, (ex, error) -> {
            if (ended[0]) {
                return;
            }
            ended[0] = true;
            deadline.remove();
            if (error instanceof RequestTooBigException) {
                ex.setPersistent(false);
                Replies.json(ex, StatusCodes.REQUEST_ENTITY_TOO_LARGE, tooLarge);
            } else {
                // the client went away mid-body: nobody to answer
                IoUtils.safeClose(ex.getConnection());
            }
        });
    }

    /** 408 when the answer can still be sent, then the connection closes (the rest of the body is never read). */
    private static void timedOut(HttpServerExchange exchange, long timeoutMs) {
        exchange.setPersistent(false);
        if (exchange.isResponseStarted()) {
            IoUtils.safeClose(exchange.getConnection());
            return;
        }
        exchange.setStatusCode(StatusCodes.REQUEST_TIME_OUT);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, Replies.JSON);
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
        exchange.getResponseHeaders().put(Headers.CONNECTION, "close");
        exchange.getResponseSender().send(ErrorResults.of(
                "The request body did not arrive within " + timeoutMs + " ms (bullet.rest.request.timeout.ms)",
                "Send the whole body at once, or raise bullet.rest.request.timeout.ms"), StandardCharsets.UTF_8,
                new CloseAfterSending());
    }

    /** Closes the connection once the 408 is written (or could not be). */
    private static final class CloseAfterSending implements IoCallback {
        @Override
        public void onComplete(HttpServerExchange exchange, Sender sender) {
            IoUtils.safeClose(exchange.getConnection());
        }

        @Override
        public void onException(HttpServerExchange exchange, Sender sender, IOException exception) {
            IoUtils.safeClose(exchange.getConnection());
        }
    }

    private static String text(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        return !s.isEmpty() && s.charAt(0) == '\uFEFF' ? s.substring(1) : s;
    }
}
