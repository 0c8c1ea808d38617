package dev.bullet.rest;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.StatusCodes;

/**
 * The listener of one http-query: answers the waiting request once the query ends, with its final result (200),
 * or with the error that ended it: 409 when it was killed (DELETE) before finishing, 503 when the topology did not
 * answer in time or the service is shutting down. Window results cannot occur (windowed queries are refused).
 */
final class HttpQueryResponder implements QueryListener {
    private final HttpServerExchange exchange;
    private final String id;

    HttpQueryResponder(HttpServerExchange exchange, String id) {
        this.exchange = exchange;
        this.id = id;
    }

    @Override
    public void onResult(String resultJson) {
        // no windows on http-query
    }

    @Override
    public void onEnd(Ending ending, String resultJson) {
        int status = switch (ending) {
            case COMPLETED -> StatusCodes.OK;
            case KILLED -> StatusCodes.CONFLICT;
            case TIMED_OUT, SHUT_DOWN -> StatusCodes.SERVICE_UNAVAILABLE;
        };
        exchange.getIoThread().execute(() -> {
            if (!exchange.isResponseStarted()) {
                exchange.getResponseHeaders().put(Replies.QUERY_ID_HEADER, id);
                Replies.json(exchange, status, resultJson);
            }
        });
    }
}
