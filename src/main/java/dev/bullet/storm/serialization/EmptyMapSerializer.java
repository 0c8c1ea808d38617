package dev.bullet.storm.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.util.Collections;
import java.util.Map;

/**
 * Kryo serializer for {@code Collections.emptyMap()}: Storm 2.8 sends metric data points whose dimensions are that
 * map between workers without registering it, which kills the sending executor with more than one worker.
 */
public final class EmptyMapSerializer extends Serializer<Map<?, ?>> {
    @Override
    public void write(Kryo kryo, Output output, Map<?, ?> map) {
        // nothing to write: the map is always empty
    }

    @Override
    public Map<?, ?> read(Kryo kryo, Input input, Class<? extends Map<?, ?>> type) {
        return Collections.emptyMap();
    }
}
