package dev.bullet.pubsub;

import dev.bullet.common.Clock;
import dev.bullet.config.BulletSettings;
import dev.bullet.config.SettingsTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results a Join task emitted and the Result bolt has not yet confirmed (Kafka has them, or the Result bolt gave
 * up and sent an error result instead), kept so they can be sent again when the Result bolt's worker dies with them.
 * Each result is named by a delivery id made here ({@code prefix} + a counter), the same on every send, by which REST
 * drops a second copy.
 *
 * <p>{@link #add} keeps a result and hands it out to be emitted; {@link #confirm} forgets it; {@link #resend}, on the
 * Join's tick, hands out again the results of every query one of whose results waited past its backoff
 * ({@link Policy}): all of that query's unconfirmed results, in the order they were first emitted, so a client gets
 * a query's windows in order. A query's final result is held back while earlier results of the query are
 * unconfirmed, and handed out once they are confirmed or no longer kept: REST closes a query on its final result,
 * so a window arriving after it would be lost. After its last re-send a result is no longer kept; past
 * {@link Policy#maxResults} or {@link Policy#maxBytes} the oldest are no longer kept (a held one is handed out once
 * first); a result alone larger than {@code maxBytes} is handed out and not kept. Each of these is logged (at most
 * every 10 s, with a count) and counted in {@link #dropped()}. Not thread-safe: the owner's thread only.
 */
public final class UnconfirmedResults {
    private static final Logger LOG = LoggerFactory.getLogger(UnconfirmedResults.class);
    private static final long LOG_INTERVAL_MS = 10_000;

    /**
     * When results are sent again and how much is kept.
     *
     * @param firstResendMs how long after its send a result is sent again if not confirmed; doubles per re-send
     * @param maxResendMs   the longest wait between two sends
     * @param resends       re-sends of a result at most; after the last one's wait it is no longer kept
     * @param maxResults    results kept at most
     * @param maxBytes      characters of results kept at most
     */
    public record Policy(long firstResendMs, long maxResendMs, int resends, int maxResults, long maxBytes)
        implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Re-sent 5 s after a send, then 10 s apart, 12 times: a Result worker restarted within two minutes. */
        public static final Policy DEFAULT = new Policy(5_000, 10_000, 12, 10_000, 64L << 20);

        public Policy {
            if (firstResendMs < 1 || maxResendMs < firstResendMs || resends < 0 || maxResults < 1 || maxBytes < 1) {
                throw new IllegalArgumentException("not a re-send policy: " + firstResendMs + ".." + maxResendMs
                                                   + " ms, " + resends + " re-sends, " + maxResults + " results, "
                                                   + maxBytes + " bytes");
            }
        }

        /** The default timings with the bounds of the settings. */
        public static Policy from(BulletSettings settings) {
            return new Policy(DEFAULT.firstResendMs, DEFAULT.maxResendMs, DEFAULT.resends,
                              settings.getInt(SettingsTable.JOIN_UNCONFIRMED_MAX_RESULTS),
                              settings.getLong(SettingsTable.JOIN_UNCONFIRMED_MAX_BYTES));
        }

        /** The wait after a result's {@code sends}-th send (1 = the first). */
        public long waitMs(int sends) {
            long wait = firstResendMs;
            for (int i = 1; i < sends && wait < maxResendMs; i++) {
                wait *= 2;
            }
            return Math.min(wait, maxResendMs);
        }
    }

    /** A result to emit: its query, its delivery id, its JSON, where REST reads it, and whether it is the final one. */
    public record Outgoing(String queryId, String deliveryId, String json, int replyPartition, boolean last) {
    }

    private static final class Entry {
        final Outgoing result;
        boolean held;
        int sends;
        long dueAt;

        Entry(Outgoing result) {
            this.result = result;
        }
    }

    private final String prefix;
    private final Policy policy;
    private final Clock clock;
    /** Every kept result by delivery id, oldest first. */
    private final LinkedHashMap<String, Entry> kept = new LinkedHashMap<>();
    /** The kept results of each query, oldest first. */
    private final Map<String, LinkedHashMap<String, Entry>> byQuery = new HashMap<>();
    private long counter;
    private long bytes;
    private long dropped;
    private long unlogged;
    private long lastLog = Long.MIN_VALUE / 2;

    /** @param prefix the start of every delivery id made here: unique to this owner (and to its restarts) */
    public UnconfirmedResults(String prefix, Policy policy, Clock clock) {
        this.prefix = prefix;
        this.policy = policy;
        this.clock = clock;
    }

    /** Keeps a new result and adds it to {@code out} to emit now, unless it is a final one held back. */
    public void add(String queryId, String json, int replyPartition, boolean last, List<Outgoing> out) {
        Outgoing result = new Outgoing(queryId, prefix + counter++, json, replyPartition, last);
        if (json.length() > policy.maxBytes()) {
            out.add(result);
            drop(result, "it alone is larger than the bound on what the Join keeps");
            return;
        }
        Entry entry = new Entry(result);
        LinkedHashMap<String, Entry> mine = byQuery.computeIfAbsent(queryId, q -> new LinkedHashMap<>());
        entry.held = last && !mine.isEmpty();
        mine.put(result.deliveryId(), entry);
        kept.put(result.deliveryId(), entry);
        bytes += json.length();
        if (!entry.held) {
            sent(entry, clock.now(), out);
        }
        while (kept.size() > policy.maxResults() || bytes > policy.maxBytes()) {
            Entry oldest = kept.values().iterator().next();
            if (oldest.held) {
                sent(oldest, clock.now(), out);
            }
            remove(oldest, out);
            drop(oldest.result, "the Join keeps at most " + policy.maxResults() + " results and "
                                + policy.maxBytes() + " bytes");
        }
    }

    /**
     * The Result bolt confirmed a result: it is forgotten, and a final result held back for it is added to {@code out}.
     *
     * @return whether the result was kept
     */
    public boolean confirm(String deliveryId, List<Outgoing> out) {
        Entry entry = kept.get(deliveryId);
        if (entry == null) {
            return false;
        }
        remove(entry, out);
        return true;
    }

    /**
     * Adds to {@code out} the results to send again now: every unconfirmed result of each query one of whose results
     * waited past its backoff, oldest first; a result past its last re-send is no longer kept.
     */
    public void resend(List<Outgoing> out) {
        if (kept.isEmpty()) {
            return;
        }
        long now = clock.now();
        List<Entry> due = new ArrayList<>();
        for (LinkedHashMap<String, Entry> mine : byQuery.values()) {
            boolean any = false;
            for (Entry e : mine.values()) {
                any |= !e.held && e.dueAt <= now;
            }
            if (any) {
                mine.values().stream().filter(e -> !e.held).forEach(due::add);
            }
        }
        for (Entry e : due) {
            if (!kept.containsKey(e.result.deliveryId())) {
                continue;
            }
            if (e.sends > policy.resends()) {
                remove(e, out);
                drop(e.result, "it was sent " + e.sends + " times without a confirmation from the Result bolt");
            } else {
                sent(e, now, out);
            }
        }
    }

    /** Forgets the results of a query (killed: no one reads them). */
    public void forget(String queryId) {
        LinkedHashMap<String, Entry> mine = byQuery.remove(queryId);
        if (mine != null) {
            for (Entry e : mine.values()) {
                kept.remove(e.result.deliveryId());
                bytes -= e.result.json().length();
            }
        }
    }

    private void sent(Entry e, long now, List<Outgoing> out) {
        e.held = false;
        e.sends++;
        e.dueAt = now + policy.waitMs(e.sends);
        out.add(e.result);
    }

    /** Stops keeping {@code e}; a final result of its query held back for it alone is released into {@code out}. */
    private void remove(Entry e, List<Outgoing> out) {
        String queryId = e.result.queryId();
        kept.remove(e.result.deliveryId());
        bytes -= e.result.json().length();
        LinkedHashMap<String, Entry> mine = byQuery.get(queryId);
        mine.remove(e.result.deliveryId());
        if (mine.isEmpty()) {
            byQuery.remove(queryId);
            return;
        }
        Iterator<Entry> rest = mine.values().iterator();
        Entry first = rest.next();
        if (first.held) {
            sent(first, clock.now(), out);
        }
    }

    private void drop(Outgoing result, String why) {
        dropped++;
        unlogged++;
        long now = clock.now();
        if (now - lastLog >= LOG_INTERVAL_MS) {
            LOG.warn("No longer keeping a result of query {} until the Result bolt confirms it ({}); {} result(s) not"
                     + " kept since the last such line", result.queryId(), why, unlogged);
            lastLog = now;
            unlogged = 0;
        }
    }

    /** Results kept (sent or held back), not yet confirmed. */
    public int size() {
        return kept.size();
    }

    /** Characters of the results kept. */
    public long bytes() {
        return bytes;
    }

    /** Results no longer kept before a confirmation, since this started. */
    public long dropped() {
        return dropped;
    }

    /** Queries with kept results. */
    public int queries() {
        return byQuery.size();
    }
}
