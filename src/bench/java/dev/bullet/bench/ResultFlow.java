package dev.bullet.bench;

import dev.bullet.pubsub.KafkaPubSub;
import dev.bullet.pubsub.KafkaPubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.record.FieldPath;
import dev.bullet.record.JsonCodec;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;
import dev.bullet.rest.RestServer;
import dev.bullet.testing.TopologyHarness;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A workload of queries kept running through the real query path, with their results read as a client reads them:
 * the pipeline benchmarks' "results flowing" side. Each query of the workload is submitted (cycling through the list
 * to reach N); a query that completes (a RAW that found its records, a duration that ended) is submitted again at
 * once, so N stay running (by a second thread: a send waits for the broker, and the reader must not wait behind it,
 * or results would queue in Kafka and their arrival be measured late). One thread reads every result from the
 * response topic, counts results and bytes, and
 * for the RAW records that carry the load generator's intended send time ({@link #SENT_FIELD}, appended by
 * {@link #stamp}) records produce → filtered (the Filter's injected match time) and produce → result arrival (of
 * the record that completed the result), in ms.
 */
final class ResultFlow implements AutoCloseable {
    /** The field the load generator appends to every record: its intended send time, epoch ms. */
    static final String SENT_FIELD = "bench_sent_ms";
    /**
     * The response partition the workload's results come back on: not the harness's, which keeps every result it
     * reads (for tests) and would hold every result of a long run. The topology needs {@code PARTITION + 1}.
     */
    static final int PARTITION = TopologyHarness.REPLY_PARTITION + 1;
    private static final String SENT_KEY = "\"" + SENT_FIELD + "\":";
    private static final byte[] SENT_MEMBER = SENT_KEY.getBytes(StandardCharsets.US_ASCII);
    private static final long MAX_MS = Duration.ofHours(1).toMillis();
    private static final RecordDecoder DECODER = new RecordDecoder();
    private static final FieldPath RECORDS = FieldPath.of("records");

    private final TopologyHarness stack;
    private final List<String> workload;
    private final String filteredKey;
    private final Map<String, String> running = new ConcurrentHashMap<>();
    private final Recorder toFiltered = new Recorder(MAX_MS, 3);
    private final Recorder toResult = new Recorder(MAX_MS, 3);
    private final AtomicLong results = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong restarts = new AtomicLong();
    /** The response topic's reader; null when results come through the REST service. */
    private final Subscriber subscriber;
    private final Thread reader;
    /** The REST service's sse-query address, when queries go through it; else null. */
    private final URI sseQuery;
    private final HttpClient http;
    /** The open streams of the queries running through the REST service, by the key in {@link #running}. */
    private final Map<String, Flow.Subscription> streams = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    /** Queries to submit again, in the order they completed; the restarter sends them. */
    private final BlockingQueue<String> toRestart = new LinkedBlockingQueue<>();
    private final Thread restarter;
    private volatile boolean stopped;
    private int next;

    ResultFlow(TopologyHarness stack, List<String> workload, String filteredKey) {
        this(stack, workload, filteredKey, null);
    }

    /**
     * As above; with {@code rest} (the REST service's base address) each query goes in through the service's
     * sse-query endpoint and its results come back as that stream's events, as a user's client gets them.
     */
    ResultFlow(TopologyHarness stack, List<String> workload, String filteredKey, URI rest) {
        if (workload.isEmpty()) {
            throw new IllegalArgumentException("no queries in the workload");
        }
        this.stack = stack;
        this.workload = List.copyOf(workload);
        this.filteredKey = filteredKey;
        if (rest == null) {
            this.sseQuery = null;
            this.http = null;
            this.subscriber = new KafkaPubSub(KafkaPubSubFactory.config(stack.settings()))
                    .responseSubscriber(List.of(PARTITION));
            this.reader = new Thread(this::readLoop, "bench-result-reader");
            this.reader.setDaemon(true);
            this.reader.start();
        } else {
            this.sseQuery = rest.resolve(RestServer.SSE_QUERY);
            this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                  .connectTimeout(Duration.ofSeconds(10)).build();
            this.subscriber = null;
            this.reader = null;
        }
        this.restarter = new Thread(this::restartLoop, "bench-restarter");
        this.restarter.setDaemon(true);
        this.restarter.start();
    }

    /** {@code record} (a JSON object's bytes) with {@link #SENT_FIELD} set to {@code sentMs} as its last field. */
    static byte[] stamp(byte[] record, long sentMs) {
        return JsonCodec.withMember(record, SENT_MEMBER, sentMs);
    }

    /**
     * The latencies one result carries: {@code toFiltered} gets filtered − sent for each record with both
     * {@link #SENT_FIELD} and {@code filteredKey}; {@code toResult} gets one value per result, arrival − the newest
     * record's send time: the record that completed a RAW query (a RAW of size 100 holds its first record until the
     * hundredth arrives, which is the query's meaning, not the pipeline's delay).
     */
    static void latencies(String payload, long arrivalMs, String filteredKey, Function<Long, Boolean> toFiltered,
                          Function<Long, Boolean> toResult) {
        if (payload == null || !payload.contains(SENT_FIELD)) {
            return;
        }
        if (!stampsInPlace(payload, arrivalMs, ",\"" + filteredKey + "\":", toFiltered, toResult)) {
            decodedLatencies(payload, arrivalMs, filteredKey, toFiltered, toResult);
        }
    }

    /** {@link #latencies} from the decoded result. */
    static void decodedLatencies(String payload, long arrivalMs, String filteredKey, Function<Long, Boolean> toFiltered,
                                 Function<Long, Boolean> toResult) {
        // read in place: only two numbers of each record are needed, and the reader shares the cores with the pipeline
        Record result = DECODER.decode(payload.getBytes(StandardCharsets.UTF_8));
        Object records = result != null ? result.get(RECORDS) : JsonCodec.parseMap(payload).get("records");
        if (!(records instanceof List<?> list)) {
            return;
        }
        long newest = Long.MIN_VALUE;
        for (Object r : list) {
            if (r instanceof Map<?, ?> record && record.get(SENT_FIELD) instanceof Number sent) {
                newest = Math.max(newest, sent.longValue());
                if (record.get(filteredKey) instanceof Number filtered) {
                    toFiltered.apply(filtered.longValue() - sent.longValue());
                }
            }
        }
        if (newest != Long.MIN_VALUE) {
            toResult.apply(arrivalMs - newest);
        }
    }

    /**
     * {@link #latencies} found by the keys' text, without decoding the result: the reader shares the 2 cores with
     * the pipeline it measures, and a realistic result is ~20 KB of records read ~1,500 times a second. It reads
     * what the pipeline writes: {@link #stamp} appends the send time as a record's last member and the Filter
     * appends its match time right after it, so each {@code "bench_sent_ms":<digits>} is followed by {@code }}
     * or by the match time and {@code }}. Anything else (an escape anywhere, a projection that moved the stamp, a
     * query whose text names the field) answers false with nothing recorded, and the caller decodes the result.
     * A key inside a string cannot match: its quotes would be escaped.
     */
    static boolean stampsInPlace(String payload, long arrivalMs, String filteredMember,
                                 Function<Long, Boolean> toFiltered, Function<Long, Boolean> toResult) {
        if (payload.indexOf('\\') >= 0) {
            return false;
        }
        long[] pairs = new long[16];
        int n = 0;
        int at = payload.indexOf(SENT_KEY);
        while (at >= 0) {
            int i = at + SENT_KEY.length();
            int end = digitsEnd(payload, i);
            if (end == i) {
                return false;
            }
            long sent = Long.parseLong(payload, i, end, 10);
            long filtered = Long.MIN_VALUE;
            i = end;
            if (i < payload.length() && payload.charAt(i) == ',') {
                if (!payload.startsWith(filteredMember, i)) {
                    return false;
                }
                i += filteredMember.length();
                end = digitsEnd(payload, i);
                if (end == i) {
                    return false;
                }
                filtered = Long.parseLong(payload, i, end, 10);
                i = end;
            }
            if (i >= payload.length() || payload.charAt(i) != '}') {
                return false;
            }
            if (n + 2 > pairs.length) {
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
            }
            pairs[n++] = sent;
            pairs[n++] = filtered;
            at = payload.indexOf(SENT_KEY, i);
        }
        long newest = Long.MIN_VALUE;
        for (int k = 0; k < n; k += 2) {
            newest = Math.max(newest, pairs[k]);
            if (pairs[k + 1] != Long.MIN_VALUE) {
                toFiltered.apply(pairs[k + 1] - pairs[k]);
            }
        }
        if (newest != Long.MIN_VALUE) {
            toResult.apply(arrivalMs - newest);
        }
        return true;
    }

    /** The end of the integer (an optional minus, then ASCII digits, at most 18) at {@code i}, or {@code i}. */
    private static int digitsEnd(String s, int i) {
        int j = i < s.length() && s.charAt(i) == '-' ? i + 1 : i;
        int from = j;
        while (j < s.length() && j - from < 18 && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
            j++;
        }
        return j == from ? i : j;
    }

    /** Brings the running queries to {@code n}, cycling through the workload. */
    void setQueries(int n) {
        List<String> ids = new ArrayList<>(running.keySet());
        for (int i = n; i < ids.size(); i++) {
            running.remove(ids.get(i));
            if (sseQuery == null) {
                stack.kill(ids.get(i), PARTITION);
            } else {
                Flow.Subscription stream = streams.remove(ids.get(i));
                if (stream != null) {
                    stream.cancel(); // the service sees the client go and kills the query
                }
            }
        }
        while (running.size() < n) {
            String query = workload.get(next++ % workload.size());
            if (sseQuery == null) {
                running.put(stack.submit(query, PARTITION), query);
            } else {
                submitThroughRest(query);
            }
        }
    }

    /** Starts the query through the REST service's sse-query; its stream's events are its results. */
    private void submitThroughRest(String query) {
        String key = UUID.randomUUID().toString();
        running.put(key, query);
        HttpRequest request = HttpRequest.newBuilder(sseQuery).header("Content-Type", "application/json")
                                         .POST(HttpRequest.BodyPublishers.ofString(query)).build();
        SseEvents events = new SseEvents(key, query);
        // a refused query (4xx) is not sent again: it would be refused again, as fast as the loop can go
        HttpResponse.BodyHandler<Void> handler = info -> info.statusCode() == 200
                ? HttpResponse.BodySubscribers.fromSubscriber(events)
                : HttpResponse.BodySubscribers.discarding();
        http.sendAsync(request, handler).whenComplete((response, error) -> {
            if (error == null && response.statusCode() != 200) {
                running.remove(key);
                if (refused.incrementAndGet() <= 5) {
                    System.err.println("bench: the REST service answered " + response.statusCode() + " to " + query
                                       + "; not sent again");
                }
            }
        });
    }

    /**
     * One sse-query stream: {@code data:} lines up to a blank line are one event, the result's JSON; comments
     * (keep-alives) are skipped. When the stream ends (the query finished) the query is submitted again. Lines are
     * cut from the body's bytes here: the JDK's line subscriber searches its whole pending text again for each
     * chunk, quadratic in a ~20 KB result line (it took a fifth of the CPU of a P4 run).
     */
    private final class SseEvents implements Flow.Subscriber<List<ByteBuffer>> {
        private final String key;
        private final String query;
        private final StringBuilder data = new StringBuilder();
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        SseEvents(String key, String query) {
            this.key = key;
            this.query = query;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            streams.put(key, subscription);
            if (!running.containsKey(key)) {
                subscription.cancel(); // taken away (setQueries) before its stream opened
                return;
            }
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer b : buffers) {
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                int from = 0;
                for (int i = 0; i < chunk.length; i++) {
                    if (chunk[i] == '\n') {
                        pending.write(chunk, from, i - from);
                        byte[] line = pending.toByteArray();
                        pending.reset();
                        int n = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
                        line(new String(line, 0, n, StandardCharsets.UTF_8));
                        from = i + 1;
                    }
                }
                pending.write(chunk, from, chunk.length - from);
            }
        }

        private void line(String line) {
            if (line.isEmpty()) {
                deliver();
            } else if (line.startsWith("data:")) {
                if (!data.isEmpty()) {
                    data.append('\n');
                }
                data.append(line, line.startsWith("data: ") ? 6 : 5, line.length());
            }
        }

        private void deliver() {
            if (data.isEmpty()) {
                return;
            }
            String payload = data.toString();
            data.setLength(0);
            results.incrementAndGet();
            bytes.addAndGet(payload.length());
            try {
                latencies(payload, System.currentTimeMillis(), filteredKey, v -> record(toFiltered, v),
                          v -> record(toResult, v));
            } catch (RuntimeException e) {
                System.err.println("bench: a result that is not JSON: " + e);
            }
        }

        @Override
        public void onError(Throwable error) {
            ended();
        }

        @Override
        public void onComplete() {
            deliver();
            ended();
        }

        private void ended() {
            streams.remove(key);
            if (running.remove(key) != null && !stopped) {
                toRestart.add(query);
            }
        }
    }

    private void readLoop() {
        while (!stopped) {
            List<PubSubMessage> messages;
            try {
                messages = subscriber.receive(Duration.ofMillis(200));
            } catch (RuntimeException e) {
                if (stopped) {
                    return;
                }
                System.err.println("bench: cannot read results: " + e);
                continue;
            }
            long arrival = System.currentTimeMillis();
            for (PubSubMessage m : messages) {
                results.incrementAndGet();
                String payload = m.payload();
                bytes.addAndGet(payload == null ? 0 : payload.length());
                try {
                    latencies(payload, arrival, filteredKey, v -> record(toFiltered, v), v -> record(toResult, v));
                } catch (RuntimeException e) {
                    System.err.println("bench: a result that is not JSON: " + e);
                }
                if (m.signal() == Signal.COMPLETE || m.signal() == Signal.FAIL) {
                    String query = running.remove(m.id());
                    if (query != null && !stopped) {
                        toRestart.add(query);
                    }
                }
            }
        }
    }

    private void restartLoop() {
        while (!stopped) {
            String query;
            try {
                query = toRestart.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (query == null || stopped) {
                continue;
            }
            if (sseQuery != null) {
                submitThroughRest(query);
                restarts.incrementAndGet();
                continue;
            }
            String id = UUID.randomUUID().toString();
            running.put(id, query); // before the send: its results may come back before the send returns
            try {
                stack.submit(id, query, PARTITION);
                restarts.incrementAndGet();
            } catch (RuntimeException e) {
                running.remove(id);
                if (!stopped) {
                    System.err.println("bench: cannot submit a query again: " + e);
                }
            }
        }
    }

    private static boolean record(Recorder recorder, long ms) {
        recorder.recordValue(Math.max(0, Math.min(ms, MAX_MS)));
        return true;
    }

    /** How many of the workload's queries are running (submitted, not ended, not refused). */
    int running() {
        return running.size();
    }

    /** Starts a measurement interval: latencies and counts from now on. */
    Interval begin() {
        toFiltered.reset();
        toResult.reset();
        return new Interval(results.get(), bytes.get(), restarts.get(), System.nanoTime());
    }

    /** What arrived since {@code begin}: results/s, bytes/s, restarts/s and the two latency distributions. */
    Map<String, Object> end(Interval from) {
        double seconds = (System.nanoTime() - from.startNanos) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("results_per_second", Math.round((results.get() - from.results) / seconds));
        m.put("result_bytes_per_second", Math.round((bytes.get() - from.bytes) / seconds));
        m.put("restarts_per_second", Math.round((restarts.get() - from.restarts) / seconds));
        m.put("produce_to_filtered_ms", summary(toFiltered.getIntervalHistogram()));
        m.put("produce_to_result_ms", summary(toResult.getIntervalHistogram()));
        return m;
    }

    static Map<String, Object> summary(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("p50", h.getValueAtPercentile(50));
        m.put("p99", h.getValueAtPercentile(99));
        m.put("p999", h.getValueAtPercentile(99.9));
        m.put("max", h.getMaxValue());
        return m;
    }

    record Interval(long results, long bytes, long restarts, long startNanos) {
    }

    @Override
    public void close() {
        stopped = true;
        streams.values().forEach(Flow.Subscription::cancel);
        try {
            if (reader != null) {
                reader.join(5_000);
            }
            restarter.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (subscriber != null) {
            subscriber.close();
        }
    }
}
