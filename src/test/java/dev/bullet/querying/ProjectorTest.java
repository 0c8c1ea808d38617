package dev.bullet.querying;

import dev.bullet.query.NamedField;
import dev.bullet.record.Record;
import dev.bullet.testing.Records;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.bullet.testing.Records.mapOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class ProjectorTest {
    private static final Record RECORD = Records.of("id", "x", "n", 3L, "nil", null)
            .map("m", "a", 1L, "b", mapOf("c", "deep"))
            .list("l", mapOf("k", "v"))
            .build();

    @Test
    void withoutAProjectionTheRecordPassesThrough() {
        assertSame(RECORD, new Projector(null).project(RECORD));
    }

    @Test
    void keepsOnlyTheListedPathsUnderTheirNewNamesInOrder() {
        Record out = new Projector(List.of(NamedField.of("m.b.c", "c"), NamedField.of("id", "identifier"),
                                           NamedField.of("l.0.k", "first"), NamedField.of("m", "m"))).project(RECORD);
        assertEquals(mapOf("c", "deep", "identifier", "x", "first", "v", "m", mapOf("a", 1L, "b", mapOf("c", "deep"))), out.asMap());
        assertEquals(List.of("c", "identifier", "first", "m"), List.copyOf(out.asMap().keySet()));
    }

    @Test
    void missingAndNullFieldsAreLeftOut() {
        Record out = new Projector(List.of(NamedField.of("nope", "a"), NamedField.of("nil", "b"), NamedField.of("n", "n"))).project(RECORD);
        assertEquals(mapOf("n", 3L), out.asMap());
    }
}
