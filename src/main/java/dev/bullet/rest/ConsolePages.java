package dev.bullet.rest;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The browser console: a single page and its scripts, style sheets and icon, served from the jar ({@code /console/*} on the
 * classpath) at {@code /} and {@code /console}. Read once at start; nothing is fetched from the network.
 */
final class ConsolePages {
    static final String PAGE = "/console";
    private static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "console.css", "text/css; charset=utf-8",
            "console.js", "application/javascript; charset=utf-8",
            "favicon.svg", "image/svg+xml",
            "tools.css", "text/css; charset=utf-8",
            "api.js", "application/javascript; charset=utf-8",
            "schema.js", "application/javascript; charset=utf-8",
            "builder.js", "application/javascript; charset=utf-8",
            "history.js", "application/javascript; charset=utf-8",
            "export.js", "application/javascript; charset=utf-8");
    private static final Map<String, byte[]> FILES = load();

    private ConsolePages() {
    }

    private static Map<String, byte[]> load() {
        Map<String, byte[]> files = new HashMap<>();
        for (String name : TYPES.keySet()) {
            try (InputStream in = ConsolePages.class.getResourceAsStream("/console/" + name)) {
                if (in == null) {
                    throw new IllegalStateException("the console file /console/" + name + " is missing from the jar");
                }
                files.put(name, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Map.copyOf(files);
    }

    /** Whether the path (without trailing slash) is the console's: {@code /}, {@code /console} or an asset. */
    static boolean owns(String path) {
        return path.isEmpty() || path.equals("/") || path.equals(PAGE) || path.startsWith(PAGE + "/");
    }

    /** Serves the page or an asset (GET and HEAD); 404 in the result shape for any other file. IO thread. */
    static void serve(HttpServerExchange exchange, String path) {
        String name = path.startsWith(PAGE + "/") ? path.substring(PAGE.length() + 1) : "index.html";
        byte[] body = FILES.get(name);
        if (body == null) {
            Replies.json(exchange, StatusCodes.NOT_FOUND, ErrorResults.of("No console file " + path,
                                                                          "The console is at " + PAGE));
            return;
        }
        exchange.setStatusCode(StatusCodes.OK);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, TYPES.get(name));
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
        exchange.getResponseSender().send(ByteBuffer.wrap(body));
    }
}
