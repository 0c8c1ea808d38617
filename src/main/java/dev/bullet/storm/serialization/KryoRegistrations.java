package dev.bullet.storm.serialization;

import dev.bullet.querying.FilterFailure;
import dev.bullet.querying.RawPartial;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.MapRecord;
import org.apache.storm.Config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;

/**
 * Every type that travels in a tuple between workers, registered with Kryo in the topology's config (the one place
 * that does). Java serialization stays off ({@code topology.fall.back.on.java.serialization: false}), so a type
 * missing here fails loudly in {@code KryoSerializationTest}, not as a worker that dies on a busy cluster.
 *
 * <p>What crosses workers: record batches ({@code ArrayList} of {@link LazyRecord} as raw bytes, or
 * {@link MapRecord}), raw message batches and sketch partials ({@code byte[]}), RAW partials ({@link RawPartial}, as
 * the JSON array of their rows), partials that end their query ({@link FilterFailure}), query JSON, ids and signals
 * ({@code String}), batch keys ({@code long[]}), times and partitions ({@code Long}, {@code Integer}, {@code Boolean}), and metrics data points
 * (Storm registers {@code DataPoint} itself; their values are numbers or {@code LinkedHashMap}s, and Storm 2.8
 * sends {@code Collections.emptyMap()} as their dimensions).
 */
public final class KryoRegistrations {
    private KryoRegistrations() {
    }

    /** Registers the project's serializers and turns Java serialization and skipped registrations off. */
    public static void register(Config conf) {
        conf.registerSerialization(LazyRecord.class, LazyRecordSerializer.class);
        conf.registerSerialization(MapRecord.class, MapRecordSerializer.class);
        conf.registerSerialization(RawPartial.class, RawPartialSerializer.class);
        conf.registerSerialization(FilterFailure.class, FilterFailureSerializer.class);
        conf.registerSerialization(LinkedHashMap.class);
        conf.registerSerialization(ArrayList.class);
        conf.registerSerialization(byte[].class);
        conf.registerSerialization(long[].class);
        conf.registerSerialization(Collections.emptyMap().getClass(), EmptyMapSerializer.class);
        conf.setFallBackOnJavaSerialization(false);
        conf.setSkipMissingKryoRegistrations(false);
    }
}
