package dev.bullet.storm.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.bullet.record.MapRecord;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A fully decoded record (what the gson fallback produces for messages the lazy scanner leaves to it) crosses
 * workers as its field map: JSON values only (String, Long, Double, Boolean, null, ArrayList, LinkedHashMap), each
 * registered with Kryo, so no class names travel.
 */
public final class MapRecordSerializer extends Serializer<MapRecord> {
    public MapRecordSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, MapRecord record) {
        Map<String, Object> fields = record.asMap();
        output.writeVarInt(fields.size(), true);
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            output.writeString(e.getKey());
            kryo.writeClassAndObject(output, e.getValue());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public MapRecord read(Kryo kryo, Input input, Class<? extends MapRecord> type) {
        int size = input.readVarInt(true);
        Map<String, Object> fields = new LinkedHashMap<>(Math.max(4, size * 2));
        for (int i = 0; i < size; i++) {
            fields.put(input.readString(), kryo.readClassAndObject(input));
        }
        return new MapRecord(fields);
    }
}
