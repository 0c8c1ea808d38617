package dev.bullet.rest;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.StatusCodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Writing responses: JSON bodies, from the IO thread or from any other thread. */
final class Replies {
    static final String JSON = "application/json";
    static final HttpString QUERY_ID_HEADER = new HttpString("Bullet-Query-Id");
    private static final Logger LOG = LoggerFactory.getLogger(Replies.class);

    private Replies() {
    }

    /** Sends a JSON body with the status and ends the exchange. IO thread; does nothing if a response started. */
    static void json(HttpServerExchange exchange, int status, String body) {
        if (exchange.isResponseStarted()) {
            return;
        }
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, JSON);
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
        exchange.getResponseSender().send(body, StandardCharsets.UTF_8);
    }

    /** {@link #json} from any thread (hops to the exchange's IO thread). */
    static void jsonLater(HttpServerExchange exchange, int status, String body) {
        exchange.getIoThread().execute(() -> {
            try {
                json(exchange, status, body);
            } catch (RuntimeException e) {
                LOG.warn("Cannot send a {} response to {}", status, exchange.getSourceAddress(), e);
            }
        });
    }

    /** A status without a body (204), from any thread. */
    static void emptyLater(HttpServerExchange exchange, int status) {
        exchange.getIoThread().execute(() -> {
            if (!exchange.isResponseStarted()) {
                exchange.setStatusCode(status);
                exchange.endExchange();
            }
        });
    }

    /**
     * Client-sent text made safe to echo in a message or a log line: control and non-ASCII characters escaped as
     * {@code \\uXXXX}, cut to {@code max} characters. Null becomes empty.
     */
    static String printable(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        for (; i < text.length() && out.length() < max; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return i < text.length() ? out + "..." : out.toString();
    }

    /**
     * A bug, not bad input: logged with the request, answered 500 in the result shape when a response can still be
     * sent. IO thread or not.
     */
    static void internalError(HttpServerExchange exchange, Throwable e) {
        String errorId = UUID.randomUUID().toString();
        LOG.error("Internal error {} while serving {} {}", errorId, exchange.getRequestMethod(), exchange.getRequestPath(), e);
        String body = ErrorResults.of("Internal error of the REST service (a bug), error id " + errorId + ": "
                                      + e.getClass().getSimpleName(),
                                      "The service log has the details under error id " + errorId + "; please report it");
        if (exchange.isInIoThread()) {
            json(exchange, StatusCodes.INTERNAL_SERVER_ERROR, body);
        } else {
            jsonLater(exchange, StatusCodes.INTERNAL_SERVER_ERROR, body);
        }
    }
}
