package dev.bullet.pubsub;

/** Control signals carried by PubSub messages (SPEC §7.1). */
public enum Signal {
    /** The query finished; its last result is in this message (response side) or it must be dropped (topology). */
    COMPLETE,
    /** The query failed; the payload holds an error result. */
    FAIL,
    /** Stop the query now (a client went away or asked to kill it). */
    KILL
}
