package dev.bullet.storm.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.bullet.querying.RawPartial;

/**
 * A RAW partial crosses workers as the JSON array of its rows (length-prefixed), the bytes a RAW partial always
 * was; the receiving worker cuts the rows from it again.
 */
public final class RawPartialSerializer extends Serializer<RawPartial> {
    public RawPartialSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, RawPartial partial) {
        byte[] bytes = partial.bytes();
        output.writeVarInt(bytes.length, true);
        output.writeBytes(bytes);
    }

    @Override
    public RawPartial read(Kryo kryo, Input input, Class<? extends RawPartial> type) {
        return RawPartial.fromBytes(input.readBytes(input.readVarInt(true)));
    }
}
