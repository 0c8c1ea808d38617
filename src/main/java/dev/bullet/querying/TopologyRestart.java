package dev.bullet.querying;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the results of a query taken up again from the query store say (the topology was killed and submitted
 * again while the query ran, and the new one took it up from its stored copy with its original start time):
 * {@code meta.restarted = {"at": <ms the new topology took it up>, "reason": "..."}} on every result of the query from
 * then on. The reason says whether the query went on from the state a Join task of the killed topology saved (its
 * answer exact: {@link #REASON_FROM_STATE}) or without one, so that the records counted before {@code at} were lost
 * ({@link #REASON}).
 */
public final class TopologyRestart {
    /** The key in a result's {@code meta}. */
    public static final String META_KEY = "restarted";
    public static final String REASON = "the topology restarted; this query was taken up again from its stored copy"
                                        + " and counts only the records read since then";
    public static final String REASON_FROM_STATE = "the topology restarted; this query was taken up again from its stored"
                                                   + " copy and went on from its saved state: no record is missed or"
                                                   + " counted twice";

    private TopologyRestart() {
    }

    /**
     * {@code result} with {@code meta.restarted} saying it was taken up again at {@code at}; {@code fromState}: from
     * the state the old topology saved.
     */
    public static Result mark(Result result, long at, boolean fromState) {
        Map<String, Object> restarted = new LinkedHashMap<>();
        restarted.put("at", at);
        restarted.put("reason", fromState ? REASON_FROM_STATE : REASON);
        Map<String, Object> meta = new LinkedHashMap<>(result.meta());
        meta.put(META_KEY, restarted);
        return new Result(result.records(), meta, result.isFinal());
    }
}
