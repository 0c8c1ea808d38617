package dev.bullet.storm;

import org.apache.storm.tuple.Fields;

/** Storm's {@link Fields} of a stream, named where {@link TopologyNames.Fields} (the field names) is in scope. */
final class StreamFields {
    private StreamFields() {
    }

    static Fields of(String... names) {
        return new Fields(names);
    }
}
