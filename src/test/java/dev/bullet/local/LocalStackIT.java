package dev.bullet.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The scripts as a user runs them: {@code scripts/bullet-local.sh} as a real process (Kafka, topology, REST in one
 * JVM), the seed's Test 3 with {@code scripts/raw-query-validation.sh 200} and Tests 1-2 with {@code scripts/latency.sh}
 * against it, then Ctrl-C (SIGINT) must stop everything and free the ports. Needs the build's {@code target/classes}
 * and {@code target/classpath.txt} (the package phase, before Failsafe).
 */
class LocalStackIT {
    private static final Path REPO = Path.of("").toAbsolutePath();
    private static final Duration STACK_READY = Duration.ofSeconds(240);
    private static final Duration SCRIPT_LIMIT = Duration.ofSeconds(180);

    /** What a finished script printed (stdout and stderr together) and its exit code. */
    record Run(int exitCode, String output) {
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void scriptsExplainThemselvesAndFailClearlyWithoutAStackOrTools(@TempDir Path bin) throws Exception {
        for (String script : List.of("raw-query-validation.sh", "latency.sh")) {
            Run help = run(List.of("scripts/" + script, "--help"), null);
            assertEquals(0, help.exitCode(), help.output());
            assertTrue(help.output().startsWith("Usage: " + script), help.output());
        }
        String nowhere = "http://127.0.0.1:" + freePort();
        Run noStack = run(List.of("scripts/raw-query-validation.sh", "5", "--url", nowhere), null);
        assertEquals(3, noStack.exitCode(), noStack.output());
        assertTrue(noStack.output().contains("not running") && noStack.output().contains("bullet-local.sh"),
                   noStack.output());
        Run latencyNoStack = run(List.of("scripts/latency.sh", "--url", nowhere), null);
        assertEquals(3, latencyNoStack.exitCode(), latencyNoStack.output());

        Run noCount = run(List.of("scripts/raw-query-validation.sh"), null);
        assertEquals(2, noCount.exitCode(), noCount.output());
        assertTrue(noCount.output().contains("N, the number of queries, is missing"), noCount.output());
        assertEquals(2, run(List.of("scripts/latency.sh", "--repetitions", "none"), null).exitCode());

        // Only dirname and curl on the PATH: jq is missing.
        for (String tool : List.of("dirname", "curl")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of(which(tool)));
        }
        Run noJq = run(List.of("/bin/bash", "scripts/raw-query-validation.sh", "5", "--url", nowhere), bin.toString());
        assertEquals(3, noJq.exitCode(), noJq.output());
        assertTrue(noJq.output().contains("'jq' is needed"), noJq.output());
    }

    @Test
    @Timeout(value = 420, unit = TimeUnit.SECONDS)
    void localStackPassesTheSeedValidationAndCtrlCStopsAllOfIt() throws Exception {
        which("curl");
        which("jq");
        int kafkaPort = freePortPair();
        // --port 0: the REST server binds an ephemeral port and the ready line names it. A port picked free here
        // could be taken by the stack's own Kafka and Storm connections before the REST server binds it.
        Path log = REPO.resolve("target").resolve("local-stack-it.log");
        int restPort = -1;
        Process stack = new ProcessBuilder("scripts/bullet-local.sh", "--kafka-port", String.valueOf(kafkaPort),
                                           "--port", "0", "--no-generator")
                .directory(REPO.toFile())
                .redirectError(log.toFile())
                .start();
        List<String> printed = new ArrayList<>();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(stack.getInputStream(),
                                                                               StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    synchronized (printed) {
                        printed.add(line);
                    }
                    if (line.startsWith(LocalMain.READY_MARKER + " ")) {
                        ready.complete(line);
                    }
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.completeExceptionally(new IllegalStateException("bullet-local.sh ended before it was ready"));
        }, "local-stack-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            String line;
            try {
                line = ready.get(STACK_READY.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                fail("bullet-local.sh never printed " + LocalMain.READY_MARKER + ": " + e + "\nstdout: " + printed(printed)
                     + "\nstderr tail: " + tail(log));
                return;
            }
            String bootstrap = "127.0.0.1:" + kafkaPort;
            Matcher marker = Pattern.compile(Pattern.quote(LocalMain.READY_MARKER)
                                            + " rest=(http://127\\.0\\.0\\.1:([0-9]+)) kafka=(.*)").matcher(line);
            assertTrue(marker.matches(), line);
            assertEquals(bootstrap, marker.group(3), line);
            String url = marker.group(1);
            restPort = Integer.parseInt(marker.group(2));
            assertTrue(restPort > 0, line);
            assertTrue(printed(printed).contains("curl -s -X POST " + url + "/api/bullet/queries/http-query"),
                       "prints an example curl: " + printed(printed));

            Run validation = run(List.of("scripts/raw-query-validation.sh", "200", "--url", url, "--bootstrap", bootstrap),
                                 null);
            assertEquals(0, validation.exitCode(), validation.output() + "\nstack log tail: " + tail(log));
            assertTrue(validation.output().contains("PASS: all 200 simultaneous RAW queries returned all 10 records"),
                       validation.output());
            assertTrue(validation.output().contains("of 200 queries are running"), "progress: " + validation.output());
            assertNoStackTrace(validation.output());

            Run latency = run(List.of("scripts/latency.sh", "--url", url, "--bootstrap", bootstrap,
                                      "--repetitions", "3"), null);
            assertEquals(0, latency.exitCode(), latency.output());
            assertTrue(latency.output().contains("Test 1 (minimum latency: RAW, no filter, LIMIT 1): 3 of 3"),
                       latency.output());
            assertTrue(latency.output().contains("record sent -> Query Finished (time to find)"), latency.output());
            assertNoStackTrace(latency.output());

            Run sse = run(List.of("scripts/latency.sh", "--url", url, "--bootstrap", bootstrap, "--test", "2",
                                  "--repetitions", "2", "--endpoint", "sse"), null);
            assertEquals(0, sse.exitCode(), sse.output());
            String clientLine = sse.output().lines().filter(l -> l.contains("result at the client (sse)")).findFirst()
                                   .orElseThrow(() -> new AssertionError("no client latency: " + sse.output()));
            assertFalse(clientLine.contains("n/a"), "the final SSE event was read: " + sse.output());
            assertNoStackTrace(sse.output());
        } finally {
            List<ProcessHandle> family = new ArrayList<>(stack.descendants().toList());
            family.add(stack.toHandle());
            // Ctrl-C
            new ProcessBuilder("kill", "-INT", String.valueOf(stack.pid())).start().waitFor(10, TimeUnit.SECONDS);
            boolean stopped = stack.waitFor(60, TimeUnit.SECONDS);
            if (!stopped) {
                family.forEach(ProcessHandle::destroyForcibly);
                fail("bullet-local.sh did not stop within 60 s of Ctrl-C; log tail: " + tail(log));
            }
            for (ProcessHandle p : family) {
                assertTrue(p.onExit().get(10, TimeUnit.SECONDS) != null && !p.isAlive(), "left behind: " + p.pid());
            }
        }
        assertTrue(printed(printed).contains("bullet-local: stopped"), printed(printed));
        assertNoStackTrace(Files.readString(log, StandardCharsets.UTF_8));
        for (int port : new int[] {restPort, kafkaPort, kafkaPort + 1}) {
            assertTrue(isFree(port), "port " + port + " is still taken after the stack stopped");
        }
    }

    /** A normal run prints no stack trace: problems are one clear line. */
    private static void assertNoStackTrace(String output) {
        assertFalse(output.contains("\tat ") || output.contains("Exception in thread"), "a stack trace: " + output);
    }

    /** Runs a script from the repository root; output is stdout and stderr together. */
    private static Run run(List<String> command, String path) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(REPO.toFile()).redirectErrorStream(true);
        if (path != null) {
            pb.environment().put("PATH", path);
        }
        Process p = pb.start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(cannot read the output: " + e + ")";
            }
        });
        if (!p.waitFor(SCRIPT_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(command + " did not finish within " + SCRIPT_LIMIT.toSeconds() + " s");
        }
        try {
            return new Run(p.exitValue(), output.get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new AssertionError("cannot read the output of " + command, e);
        }
    }

    private static String which(String tool) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/bin/sh", "-c", "command -v " + tool).start();
        String found = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor(), tool + " is not installed; the validation scripts need it (apt-get install " + tool + ")");
        return found;
    }

    private static String printed(List<String> lines) {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        }
    }

    /** A free port whose successor is free too (the broker's controller). */
    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = freePort();
            if (port < 65_535 && isFree(port + 1)) {
                return port;
            }
        }
        throw new AssertionError("no two consecutive free ports");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
