package dev.bullet.querying.aggregations;

import dev.bullet.query.GroupOperation;
import dev.bullet.query.NamedField;
import dev.bullet.record.FieldPath;
import dev.bullet.record.Record;

import java.util.ArrayList;
import java.util.List;

/**
 * The group-by fields and metrics of one GROUP aggregation, shared by all its groups; the operations that read a
 * field (all but COUNT) also as flat arrays, which every group's update walks for every record.
 */
final class GroupSpec {
    private final List<NamedField> fields;
    private final List<GroupOperation> operations;
    /** The positions (in {@link #operations}) of the operations that read a field, and their fields and types. */
    final int[] reading;
    final FieldPath[] readField;
    final GroupOperation.Type[] readType;
    final boolean[] readCoerced;

    GroupSpec(List<NamedField> fields, List<GroupOperation> operations) {
        this.fields = fields;
        this.operations = operations;
        int n = 0;
        for (GroupOperation op : operations) {
            n += op.type() == GroupOperation.Type.COUNT ? 0 : 1;
        }
        this.reading = new int[n];
        this.readField = new FieldPath[n];
        this.readType = new GroupOperation.Type[n];
        this.readCoerced = new boolean[n];
        for (int i = 0, j = 0; i < operations.size(); i++) {
            GroupOperation op = operations.get(i);
            if (op.type() != GroupOperation.Type.COUNT) {
                reading[j] = i;
                readField[j] = op.field();
                readType[j] = op.type();
                readCoerced[j] = op.coerce();
                j++;
            }
        }
    }

    List<NamedField> fields() {
        return fields;
    }

    List<GroupOperation> operations() {
        return operations;
    }

    List<Object> groupValues(Record record) {
        List<Object> values = new ArrayList<>(fields.size());
        for (NamedField f : fields) {
            values.add(SketchKeys.normalize(record.get(f.path())));
        }
        return values;
    }
}
