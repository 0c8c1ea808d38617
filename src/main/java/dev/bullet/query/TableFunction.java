package dev.bullet.query;

import java.util.List;

/**
 * A table function (bullet-core's), run on each record before the filter: the record becomes the records it
 * generates, and the filter, projection and aggregation see those.
 *
 * @param lateral  a LATERAL VIEW: each generated record also holds the fields of the record it came from (the
 *                 aliases win); otherwise (EXPLODE in SELECT) a generated record holds the aliases only
 * @param explodes the explodes, applied in turn to the records the previous one generated (chained lateral views);
 *                 exactly one when not lateral
 */
public record TableFunction(boolean lateral, List<Explode> explodes) {
    public TableFunction {
        explodes = List.copyOf(explodes);
        if (explodes.isEmpty() || !lateral && explodes.size() != 1) {
            throw new IllegalArgumentException("a table function explodes once, a lateral view at least once");
        }
    }
}
