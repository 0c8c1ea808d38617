package dev.bullet.storm.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.bullet.record.LazyRecord;
import dev.bullet.record.Record;
import dev.bullet.record.RecordDecoder;

/**
 * A lazily decoded record crosses workers as its raw message bytes (length-prefixed), nothing else: the receiving
 * worker scans them again, which is cheaper than moving decoded fields and keeps the record lazy there too. Fields
 * decoded on the sending side are not sent (the Filter bolts decode what their queries read).
 */
public final class LazyRecordSerializer extends Serializer<Record> {
    private static final RecordDecoder DECODER = new RecordDecoder();

    public LazyRecordSerializer() {
        setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, Record record) {
        byte[] bytes = ((LazyRecord) record).bytes();
        output.writeVarInt(bytes.length, true);
        output.writeBytes(bytes);
    }

    @Override
    public Record read(Kryo kryo, Input input, Class<? extends Record> type) {
        byte[] bytes = input.readBytes(input.readVarInt(true));
        // the sender's scanner accepted these bytes, so the same scanner does here: the result is a LazyRecord again
        return DECODER.decode(bytes);
    }
}
