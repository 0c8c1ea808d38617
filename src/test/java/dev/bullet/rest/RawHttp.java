package dev.bullet.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for what {@link java.net.http.HttpClient} will not send: any Host header, repeated
 * headers, raw bytes. One request per connection ({@code Connection: close}); the answer is read to its end.
 */
final class RawHttp {
    private static final int TIMEOUT_MS = 20_000;

    /** A parsed answer: status, header lines ({@code name: value}, names lower-cased), body text. */
    record Answer(int status, List<String> headers, String body) {
        String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            for (String h : headers) {
                if (h.startsWith(prefix)) {
                    return h.substring(prefix.length()).trim();
                }
            }
            return null;
        }
    }

    private RawHttp() {
    }

    /** Sends the head (request line and headers, CRLF-separated, without the final blank line) and the body. */
    static Answer send(int port, byte[] head, byte[] body) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head);
                out.write(("\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                                  .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
            } catch (SocketException e) {
                // the server answered a bad head and closed before the rest was sent: its answer is still there
                try {
                    return parse(socket.getInputStream());
                } catch (IOException gone) {
                    return new Answer(-1, List.of(), "closed by the server while sending: " + e.getMessage());
                }
            }
            return parse(socket.getInputStream());
        }
    }

    /**
     * Writes a POST of a JSON body on a connection the caller keeps open (no {@code Connection: close}): for a client
     * that goes on to read slowly, or not at all, or that goes away.
     */
    static void post(OutputStream out, int port, String path, byte[] body) throws IOException {
        out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json"
                   + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /** An answer's status line and headers, read up to the blank line; its body (empty here) is left unread. */
    static Answer head(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        while (text.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                return new Answer(-1, List.of(), "closed within the head: " + text);
            }
            text.append((char) b);
        }
        return parse(text.toString());
    }

    static Answer send(int port, String head, String body) throws IOException {
        return send(port, head.getBytes(StandardCharsets.UTF_8), body.getBytes(StandardCharsets.UTF_8));
    }

    private static Answer parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            all.write(buffer, 0, n);
        }
        return parse(all.toString(StandardCharsets.ISO_8859_1));
    }

    private static Answer parse(String text) {
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            return new Answer(-1, List.of(), text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        List<String> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.add(lines[i].substring(0, colon).toLowerCase(Locale.ROOT) + lines[i].substring(colon));
        }
        return new Answer(Integer.parseInt(lines[0].substring(9, 12)), headers, text.substring(end + 4));
    }
}
