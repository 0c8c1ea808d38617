package dev.bullet.storm;

import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.common.Clock;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.QueryRecovery;
import dev.bullet.pubsub.Signal;
import dev.bullet.pubsub.StoredQueries;
import dev.bullet.pubsub.StoredQuery;
import dev.bullet.pubsub.Subscriber;
import dev.bullet.query.QueryParser;
import dev.bullet.query.QuerySettings;
import dev.bullet.querying.StoreReplayWait;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The Query spout (SPEC §3.3): reads queries and KILL signals from the PubSub and stamps each query with its start
 * time, so every Filter task and its Join task agree on when the query began.
 *
 * <p>The query store ({@link QueryRecovery}): each stamped query is stored and each KILL ends its entry; the first
 * task of a newly started topology first takes up the stored queries still running, emitted with their original
 * start times and {@link Fields#RESTARTED_AT} (-1 on a new query). That task tells the Join tasks how its replay goes
 * ({@link Streams#STORE_REPLAY}): every {@value StoreReplayWait#REPORT_INTERVAL_MS} ms, and right after the replayed
 * queries, its start and whether the replay is done; a Join task that restarted with it holds the restarted Filter
 * tasks back until then ({@link StoreReplayWait}).
 */
public class QuerySpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;

    /**
     * Longest one {@code nextTuple} waits for queries. Kafka answers a waiting poll as soon as a query arrives, so a
     * longer wait costs no latency and keeps an idle spout from polling many times a second. Its tuples are not
     * anchored, so the spout has no acks to take while it waits.
     */
    static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    /**
     * After a poll that brought queries, the spout waits this long before the next one, so that queries coming
     * thousands a second (many users, or queries restarting) are read a few dozen per fetch instead of one or two. A
     * query that comes alone is read at once; one right behind another waits at most this long.
     */
    static final long PAUSE_AFTER_QUERIES_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final Logger LOG = LoggerFactory.getLogger(QuerySpout.class);

    private final PubSubFactory pubSub;
    private final QuerySettings settings;
    private final Clock clock;
    private transient QueryRecovery recovery;
    private transient SpoutOutputCollector collector;
    private transient Subscriber subscriber;
    private transient CountMetric malformed;
    private transient long malformedCounted;
    /** Whether this task takes up the stored queries and reports its replay; its start; the next report's time. */
    private transient boolean reportsReplay;
    private transient long instance;
    private transient long nextReport;
    /** How the spout waits after handing out queries ({@link LockSupport#parkNanos}; tests record the waits). */
    transient LongConsumer pause;

    public QuerySpout(PubSubFactory pubSub, Clock clock) {
        this(pubSub, QuerySettings.defaults(), clock);
    }

    /** @param settings the query settings, by which a stored query's duration is read when it is taken up */
    public QuerySpout(PubSubFactory pubSub, QuerySettings settings, Clock clock) {
        this.pubSub = pubSub;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        this.subscriber = pubSub.requestSubscriber();
        this.malformed = BulletMetrics.register(conf, context).counter(BulletMetrics.PUBSUB_MESSAGES_MALFORMED);
        this.pause = LockSupport::parkNanos;
        QueryParser parser = new QueryParser(settings);
        this.reportsReplay = context.getThisTaskIndex() == 0;
        this.instance = clock.now();
        this.nextReport = Long.MIN_VALUE;
        this.recovery = new QueryRecovery(pubSub.queryStore(), reportsReplay, clock, q -> {
            QueryParser.Result parsed = parser.parse(q.query());
            return parsed.isValid() ? parsed.query().durationMs() : StoredQueries.INVALID;
        });
    }

    @Override
    public void nextTuple() {
        try {
            boolean replaying = recovery.pending();
            for (StoredQuery q : recovery.takeUp()) {
                collector.emit(Streams.QUERY, new Values(q.id(), q.query(), q.startTime(), q.replyPartition(),
                                                         clock.now()));
            }
            reportReplay(replaying && !recovery.pending());
            List<PubSubMessage> messages = subscriber.receive(POLL_TIMEOUT);
            for (PubSubMessage m : messages) {
                if (m.signal() == Signal.KILL) {
                    collector.emit(Streams.SIGNAL, new Values(m.id(), Signal.KILL.name()));
                    recovery.killed(m.id());
                } else if (!m.hasSignal()) {
                    long start = clock.now();
                    collector.emit(Streams.QUERY, new Values(m.id(), m.payload(), start, m.replyPartition(), -1L));
                    recovery.started(m.id(), m.payload(), start, m.replyPartition());
                }
            }
            if (!messages.isEmpty()) {
                pause.accept(PAUSE_AFTER_QUERIES_NANOS);
            }
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e; // the executor is shutting down (interrupted in the poll): Storm ends the loop quietly
            }
            LOG.warn("Could not read queries from the PubSub; retrying", e);
        }
        long skipped = subscriber.malformedMessages();
        if (skipped != malformedCounted) {
            malformed.incrBy(skipped - malformedCounted);
            malformedCounted = skipped;
        }
    }

    /**
     * Tells the Join tasks whether this task's replay of the store is done: when {@code justDone} (behind the replayed
     * queries, which thus reach each Join task first) and every {@value StoreReplayWait#REPORT_INTERVAL_MS} ms.
     */
    private void reportReplay(boolean justDone) {
        long now = clock.now();
        if (reportsReplay && (justDone || now >= nextReport)) {
            collector.emit(Streams.STORE_REPLAY, new Values(instance, !recovery.pending()));
            nextReport = now + StoreReplayWait.REPORT_INTERVAL_MS;
        }
    }

    @Override
    public void close() {
        if (subscriber != null) {
            subscriber.close();
        }
        if (recovery != null) {
            recovery.close();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.QUERY, StreamFields.of(Fields.ID, Fields.QUERY, Fields.START_TIME,
                                                              Fields.REPLY_PARTITION, Fields.RESTARTED_AT));
        declarer.declareStream(Streams.SIGNAL, StreamFields.of(Fields.ID, Fields.SIGNAL));
        declarer.declareStream(Streams.STORE_REPLAY, StreamFields.of(Fields.INSTANCE, Fields.DONE));
    }
}
