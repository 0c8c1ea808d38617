package dev.bullet.querying.aggregations;

import dev.bullet.query.GroupOperation;
import dev.bullet.query.NamedField;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.List;

/** The group-by fields and metrics of one GROUP aggregation, shared by all its groups. */
record GroupSpec(List<NamedField> fields, List<GroupOperation> operations) {
    List<Object> groupValues(Record record) {
        List<Object> values = new ArrayList<>(fields.size());
        for (NamedField f : fields) {
            values.add(SketchKeys.normalize(record.get(f.path())));
        }
        return values;
    }
}
