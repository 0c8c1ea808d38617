package dev.bullet.storm.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.bullet.querying.FilterFailure;

/** A partial that ends its query crosses workers as its error and resolution. */
public final class FilterFailureSerializer extends Serializer<FilterFailure> {
    @Override
    public void write(Kryo kryo, Output output, FilterFailure failure) {
        output.writeString(failure.error());
        output.writeString(failure.resolution());
    }

    @Override
    public FilterFailure read(Kryo kryo, Input input, Class<? extends FilterFailure> type) {
        return new FilterFailure(input.readString(), input.readString());
    }
}
