package dev.bullet.rest;

import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.PubSubMessage.Delivery;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the result reader does with a result before its query's listener sees it: joins the chunks of a result that
 * travelled in several messages, and drops a result whose delivery id it passed on already for that query (a send
 * tried again after its confirmation was lost). Bounded: one result may be at most {@code maxResultBytes}
 * characters, the results being joined together at most {@code maxBufferedBytes}; a result that would cross either
 * is replaced by an error result for its query. The last {@value #REMEMBERED} delivery ids of each query are kept
 * while the query runs. Reader thread only.
 */
final class ResultAssembly {
    /** Delivery ids remembered per query: a second copy follows its first within a few results. */
    static final int REMEMBERED = 64;

    private final long maxResultBytes;
    private final long maxBufferedBytes;
    private final Map<String, QueryState> states = new HashMap<>();
    private long buffered;
    private long duplicates;

    private static final class Partial {
        final StringBuilder text = new StringBuilder();
        int next;
    }

    private static final class QueryState {
        final LinkedHashSet<String> delivered = new LinkedHashSet<>();
        final Map<String, Partial> partials = new LinkedHashMap<>();

        void delivered(String deliveryId) {
            delivered.add(deliveryId);
            if (delivered.size() > REMEMBERED) {
                Iterator<String> oldest = delivered.iterator();
                oldest.next();
                oldest.remove();
            }
        }
    }

    ResultAssembly(long maxResultBytes, long maxBufferedBytes) {
        this.maxResultBytes = maxResultBytes;
        this.maxBufferedBytes = maxBufferedBytes;
    }

    /**
     * The message to hand to the query's listener: {@code m} itself, a whole result once its last chunk came, an
     * error result in place of one too large to join; or null when there is nothing to hand on yet (a chunk kept, a
     * second copy dropped).
     */
    PubSubMessage accept(PubSubMessage m) {
        Delivery d = m.delivery();
        if (d == null) {
            return m;
        }
        QueryState state = states.computeIfAbsent(m.id(), id -> new QueryState());
        if (state.delivered.contains(d.id())) {
            duplicates++;
            return null;
        }
        if (!d.chunked()) {
            state.delivered(d.id());
            return m;
        }
        Partial partial = d.chunk() == 0 ? new Partial() : state.partials.get(d.id());
        Partial before = d.chunk() == 0 ? state.partials.put(d.id(), partial) : null;
        if (before != null) { // a send tried again from its first chunk
            buffered -= before.text.length();
        }
        if (partial == null || partial.next != d.chunk()) {
            discard(state, d.id()); // not the chunk expected: the rest of this result cannot be joined
            return null;
        }
        int length = m.payload().length();
        if (partial.text.length() + length > maxResultBytes || buffered + length > maxBufferedBytes) {
            boolean alone = partial.text.length() + length > maxResultBytes;
            discard(state, d.id());
            state.delivered(d.id()); // its later chunks are dropped as copies
            return new PubSubMessage(m.id(), tooLarge(m.id(), alone), m.signal(), m.replyPartition(),
                                     Delivery.whole(d.id()));
        }
        partial.text.append(m.payload());
        partial.next++;
        buffered += length;
        if (!d.last()) {
            return null;
        }
        discard(state, d.id());
        state.delivered(d.id());
        return new PubSubMessage(m.id(), partial.text.toString(), m.signal(), m.replyPartition(),
                                 Delivery.whole(d.id()));
    }

    private String tooLarge(String queryId, boolean alone) {
        if (alone) {
            return ErrorResults.forQuery(queryId, "A result of this query has more than the " + maxResultBytes
                                         + " bytes one result may have (twice bullet.query.max.bytes); it was left out",
                                         "Lower the size (or the window), narrow the projection or the filter");
        }
        return ErrorResults.forQuery(queryId, "A result of this query could not be joined: the large results arriving"
                                     + " at this REST instance together held more than " + maxBufferedBytes
                                     + " bytes; it was left out",
                                     "Submit the query again when fewer large results are on their way",
                                     "Lower the size (or the window), narrow the projection or the filter");
    }

    private void discard(QueryState state, String deliveryId) {
        Partial partial = state.partials.remove(deliveryId);
        if (partial != null) {
            buffered -= partial.text.length();
        }
    }

    /** Forgets the queries that no longer run (their copies can be dropped by id: no listener takes them). */
    void retain(Predicate<String> running) {
        for (Iterator<Map.Entry<String, QueryState>> it = states.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, QueryState> e = it.next();
            if (!running.test(e.getKey())) {
                e.getValue().partials.values().forEach(p -> buffered -= p.text.length());
                it.remove();
            }
        }
    }

    /** Characters of results being joined. */
    long buffered() {
        return buffered;
    }

    /** Second copies dropped so far. */
    long duplicates() {
        return duplicates;
    }

    /** Queries with remembered deliveries or results being joined. */
    int queries() {
        return states.size();
    }
}
