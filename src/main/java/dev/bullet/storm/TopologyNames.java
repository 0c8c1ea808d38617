package dev.bullet.storm;

/**
 * Every component id, stream id and tuple field of the topology (SPEC §3), in one place. Tuple fields are read
 * by these names, never by position.
 */
public final class TopologyNames {
    private TopologyNames() {
    }

    /** Component ids. */
    public static final class Components {
        public static final String DATASOURCE_SPOUT = "datasource-spout";
        public static final String DATASOURCE_BOLT = "datasource-bolt";
        public static final String QUERY_SPOUT = "query-spout";
        public static final String FILTER_BOLT = "filter-bolt";
        public static final String JOIN_BOLT = "join-bolt";
        public static final String RESULT_BOLT = "result-bolt";
        public static final String TICK_SPOUT = "tick-spout";

        private Components() {
        }
    }

    /** Stream ids. */
    public static final class Streams {
        /** DataSource spout → decode bolt: batches of raw messages (the default stream). */
        public static final String RAW_BATCH = "default";
        /** Decode bolt → Filter bolts: batches of records. */
        public static final String RECORDS = "records";
        /** Query spout → Filter (all) and Join (by id): new queries. */
        public static final String QUERY = "query";
        /** Query spout → Join (by id): KILL signals. Join → Filter and decode (all): COMPLETE signals. */
        public static final String SIGNAL = "signal";
        /** Filter → Join (by id): partial results, those of one emit for one Join task in one tuple. */
        public static final String PARTIAL = "partial";
        /** Join → Result bolt: results to publish. */
        public static final String RESULT = "result";
        /**
         * Result bolt → Join (by id): Kafka has a result (or the Result bolt gave up on it and sent an error result
         * instead), so its Join task stops keeping it ({@link Fields#DELIVERY}).
         */
        public static final String CONFIRM = "confirm";
        /** Tick spout → Filter and Join (all): the clock. */
        public static final String TICK = "tick";
        /**
         * A task (re)started and holds no queries: Filter and decode → Join (all), "send me the running queries";
         * Join → Filter (all), "give me back the queries I owned".
         */
        public static final String HELLO = "hello";
        /** Join → one restarted Filter or decode task (direct): a running query, as on {@link #QUERY}. */
        public static final String REPLAY = "replay";
        /**
         * DataSource spout → Join (all): every 100 ms, the read times of the spout task's batches in flight (final
         * results wait for those read before a query's end).
         */
        public static final String READS = "reads";
        /** Filter → Join (by id): a running query for a restarted Join task ({@link Fields#TASK}) to take up again. */
        public static final String RESTORE = "restore";
        /**
         * Query spout → Join (all): the replay of the query store by the query spout task that takes it up, under way
         * or done ({@link Fields#INSTANCE}, {@link Fields#DONE}); every second, and right after the replayed queries.
         */
        public static final String STORE_REPLAY = "store-replay";

        private Streams() {
        }
    }

    /** Tuple fields. */
    public static final class Fields {
        /** {@code List<byte[]>}: raw messages of one batch. */
        public static final String BATCH = "batch";
        /** {@code long}: ms when the batch was read from the source. */
        public static final String READ_TIME = "read_time";
        /** {@code List<Record>}: decoded records of one batch. */
        public static final String RECORDS = "records";
        public static final String ID = "id";
        /** {@code String}: query JSON. */
        public static final String QUERY = "query";
        /** {@code long}: ms when the query spout received the query (the query's start for every task). */
        public static final String START_TIME = "start_time";
        /** {@code int}: the response partition the owning REST instance reads. */
        public static final String REPLY_PARTITION = "reply_partition";
        /**
         * {@code long}: on the query spout's {@link Streams#QUERY}, ms when a new topology took the query up again
         * from the query store; -1 for a query just submitted.
         */
        public static final String RESTARTED_AT = "restarted_at";
        /** {@code String}: a {@link dev.bullet.pubsub.Signal} name. */
        public static final String SIGNAL = "signal";
        /**
         * {@code List<Object>}: the partials of one Filter emit bound for one Join task, flat, three items each: the
         * query id ({@code String}), the partial ({@code byte[]}, a {@code RawPartial}, or null) and whether it is
         * the task's last partial for the query ({@code Boolean}). The tuple's {@link #ID} is the first one's: every
         * id of the list goes to the same Join task under fields grouping on the id, so the tuple goes where each of
         * its partials would.
         */
        public static final String PARTIALS = "partials";
        /** {@code String}: a result's JSON. */
        public static final String RESULT = "result";
        /** {@code boolean}: the query's final result. */
        public static final String FINAL = "final";
        /**
         * {@code String}: a result's delivery id, made by its Join task and the same whenever the Join sends it
         * again; REST drops a second copy by it.
         */
        public static final String DELIVERY = "delivery";
        /**
         * {@code long[]}: the place of one raw batch in its source, the same whichever spout instance reads it, and
         * when the spout emits it again: (source, first offset, last offset) — the Kafka spout's source is the
         * partition — then, for a batch read again record by record, each record's offset. A plug-in spout may send
         * a {@code long} key instead (0: none); see {@code DecodeBolt.span}.
         */
        public static final String BATCH_KEY = "batch_key";
        /**
         * {@code boolean}: the batch may have been merged before: emitted again (it failed or timed out downstream),
         * or read again after its partition changed reader.
         */
        public static final String RETRY = "retry";
        /**
         * {@code long[]}: the spans (source, first offset, last offset) of the batches a tuple's partials cover: all
         * of them for every partial of a first attempt; one per partial, in order, for a {@link #RETRY}.
         */
        public static final String BATCH_KEYS = "batch_keys";
        /** {@code long}: the tick's time. */
        public static final String TIME = "time";
        /** {@code long}: a spout task's instance, drawn when it opens. */
        public static final String INSTANCE = "instance";
        /** {@code long[]}: the read times of a spout task's batches in flight. */
        public static final String PENDING = "pending";
        /** {@code int}: a task id (the task that said hello, or the Join task a query is restored to). */
        public static final String TASK = "task";
        /** {@code Boolean}: whether the query spout's replay of the query store is done. */
        public static final String DONE = "done";

        private Fields() {
        }
    }
}
