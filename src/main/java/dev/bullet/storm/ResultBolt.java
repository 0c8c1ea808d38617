package dev.bullet.storm;

import dev.bullet.common.BulletError;
import dev.bullet.common.Clock;
import dev.bullet.pubsub.Deliveries;
import dev.bullet.pubsub.Deliveries.RetryPolicy;
import dev.bullet.pubsub.PubSubFactory;
import dev.bullet.pubsub.PubSubMessage;
import dev.bullet.pubsub.PubSubMessage.Delivery;
import dev.bullet.pubsub.QueryStore;
import dev.bullet.pubsub.ResultTooLargeException;
import dev.bullet.pubsub.Signal;
import dev.bullet.record.JsonCodec;
import dev.bullet.storm.TopologyNames.Fields;
import dev.bullet.storm.TopologyNames.Streams;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Result bolt (SPEC §3.6): publishes each result to the PubSub, COMPLETE on a query's final result, and acks its
 * tuple once Kafka confirmed it. The sends' outcomes are recorded by the producer's thread and acted on here, on the
 * executor's thread ({@link Deliveries}): on every tuple and on every tick of the tick spout, so a failed send is
 * tried again ({@link RetryPolicy#DEFAULT}) even when no result comes. A result still undelivered after the last
 * attempt, or larger than a result may be, is counted in {@code bullet_results_dropped}, logged with its query id,
 * and replaced by a small error result, so the client hears of it. Each result carries the delivery id its Join
 * task gave it, the same on every attempt and on every re-send by the Join, by which REST drops a second copy.
 * Once Kafka confirmed a result (or it was given up and the error result sent), the bolt tells the result's Join task
 * on {@link Streams#CONFIRM}, which stops keeping it. A result the Join sends again while this task is still trying to
 * deliver it is acked and not sent twice.
 */
public class ResultBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(ResultBolt.class);

    private final PubSubFactory pubSub;
    private final RetryPolicy retries;
    private final Clock clock;
    private transient OutputCollector collector;
    private transient Deliveries<Tuple> deliveries;
    private transient Deliveries.Handler<Tuple> handler;
    private transient CountMetric dropped;
    private transient String deliveryPrefix;
    private transient long deliveryCount;
    /** Delivery ids of the results sent and not yet confirmed or given up. */
    private transient Set<String> sending;
    /** Gets a tombstone once a query's final result is confirmed (or could not be delivered for good). */
    private transient QueryStore store;

    public ResultBolt(PubSubFactory pubSub) {
        this(pubSub, RetryPolicy.DEFAULT, Clock.SYSTEM);
    }

    public ResultBolt(PubSubFactory pubSub, RetryPolicy retries, Clock clock) {
        this.pubSub = pubSub;
        this.retries = retries;
        this.clock = clock;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = Wakeups.waking(collector);
        this.deliveries = new Deliveries<>(pubSub.responsePublisher(), retries, clock);
        this.handler = new Outcomes();
        this.store = pubSub.queryStore();
        this.dropped = BulletMetrics.register(conf, context).counter(BulletMetrics.RESULTS_DROPPED);
        this.deliveryPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-"
                              + context.getThisTaskId() + "-";
        this.sending = new HashSet<>();
    }

    @Override
    public void execute(Tuple tuple) {
        if (!Streams.TICK.equals(tuple.getSourceStreamId())) {
            String id = tuple.getStringByField(Fields.ID);
            boolean last = tuple.getBooleanByField(Fields.FINAL);
            String delivery = tuple.getStringByField(Fields.DELIVERY);
            if (delivery == null) { // from a Join that keeps no results: named here, never confirmed
                delivery = deliveryPrefix + deliveryCount++;
            } else if (!sending.add(delivery)) { // sent again by the Join while still being delivered here
                collector.ack(tuple);
                deliveries.poll(handler);
                return;
            }
            PubSubMessage message = new PubSubMessage(id, tuple.getStringByField(Fields.RESULT),
                                                      last ? Signal.COMPLETE : null,
                                                      tuple.getIntegerByField(Fields.REPLY_PARTITION),
                                                      Delivery.whole(delivery));
            deliveries.send(tuple, message);
        } else {
            collector.ack(tuple);
        }
        deliveries.poll(handler);
    }

    /** Results sent and not yet confirmed or given up. */
    int pending() {
        return deliveries.pending();
    }

    @Override
    public void cleanup() {
        if (deliveries != null) {
            deliveries.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(Streams.CONFIRM, StreamFields.of(Fields.ID, Fields.DELIVERY));
    }

    /** Tells the result's Join task it may stop keeping it (unanchored: a lost one is answered by a re-send). */
    private void confirm(PubSubMessage message) {
        if (sending.remove(message.delivery().id())) {
            collector.emit(Streams.CONFIRM, new Values(message.id(), message.delivery().id()));
        }
    }

    /** The error result that replaces an undeliverable one, in the result shape of SPEC §6.8. */
    static String errorResult(String queryId, Exception failure, int attempts) {
        BulletError error;
        if (failure instanceof ResultTooLargeException large) {
            error = BulletError.of("The result has " + large.bytes() + " bytes, more than the " + large.maxBytes()
                                   + " one result may have (twice bullet.query.max.bytes); it was left out",
                                   "Lower the size (or the window), narrow the projection or the filter",
                                   "Ask an operator to raise bullet.query.max.bytes");
        } else {
            error = BulletError.of("A result of this query could not be delivered to the PubSub after " + attempts
                                   + " attempts (" + failure + "); it was left out",
                                   "Submit the query again; if this persists, ask an operator to check Kafka");
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("query_id", queryId);
        meta.put("errors", List.of(error));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("records", List.of());
        result.put("meta", meta);
        return JsonCodec.toResultJson(result);
    }

    /** On the executor's thread only (from {@link Deliveries#poll}). */
    private final class Outcomes implements Deliveries.Handler<Tuple> {
        @Override
        public void delivered(Tuple tuple, PubSubMessage message) {
            if (tuple != null) {
                collector.ack(tuple);
                confirm(message);
            }
            if (message.signal() == Signal.COMPLETE) {
                store.remove(message.id());
            }
        }

        @Override
        public void undeliverable(Tuple tuple, PubSubMessage message, Exception failure, int attempts) {
            if (tuple == null) { // the error result standing in for an undeliverable one: nothing more to do
                LOG.error("Could not publish the error result of query {} either after {} attempts", message.id(),
                          attempts, failure);
                if (message.signal() == Signal.COMPLETE) {
                    store.remove(message.id());
                }
                return;
            }
            dropped.incr();
            LOG.error("Could not publish a result of query {} after {} attempts (dropped; counted in {}; the client gets"
                      + " an error result instead)", message.id(), attempts, BulletMetrics.RESULTS_DROPPED, failure);
            collector.ack(tuple); // unanchored: nothing Storm could replay; the error result tells the client
            deliveries.send(null, new PubSubMessage(message.id(), errorResult(message.id(), failure, attempts),
                                                    message.signal(), message.replyPartition(),
                                                    Delivery.whole(deliveryPrefix + deliveryCount++)));
            confirm(message); // the Join need not send it again: the error result stands in for it
        }
    }
}
