package dev.bullet.pubsub;

/** A result larger than the most one result may be on the response topic, even in chunks; sending it again is futile. */
public final class ResultTooLargeException extends PubSubException {
    private static final long serialVersionUID = 1L;

    private final long bytes;
    private final long maxBytes;

    public ResultTooLargeException(String queryId, long bytes, long maxBytes) {
        super("the result of query " + queryId + " has " + bytes + " bytes, more than the " + maxBytes
              + " one result may have", null);
        this.bytes = bytes;
        this.maxBytes = maxBytes;
    }

    public long bytes() {
        return bytes;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
