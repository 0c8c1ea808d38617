package dev.bullet.index;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The index's number map holds what a {@code HashMap<Double, V>} with -0.0 folded onto 0.0 holds, through growth
 * and removals that shift runs of colliding keys. */
class NumberMapTest {
    private static final double[] KEYS = {0.0, -0.0, 1, -1, 2.5, Double.NaN, -Double.NaN, Double.POSITIVE_INFINITY,
                                          Double.NEGATIVE_INFINITY, 9007199254740992.0, 9007199254740994.0, 1e-300};

    private static double key(Random r) {
        return r.nextInt(3) == 0 ? KEYS[r.nextInt(KEYS.length)] : r.nextInt(200) - 100 + (r.nextBoolean() ? 0.5 : 0);
    }

    @Test
    void behavesAsAHashMapOfDoubles() {
        Random r = new Random(5);
        NumberMap<String> map = new NumberMap<>();
        Map<Double, String> reference = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            double k = key(r);
            Double folded = k == 0.0 ? 0.0 : k;
            if (r.nextInt(3) == 0) {
                map.remove(k);
                reference.remove(folded);
            } else {
                String v = "v" + step;
                String kept = map.computeIfAbsent(k, () -> v);
                assertEquals(reference.computeIfAbsent(folded, x -> v), kept, "key " + k);
            }
            double probe = key(r);
            assertEquals(reference.get(probe == 0.0 ? 0.0 : probe), map.get(probe), "probe " + probe + " at " + step);
            assertEquals(reference.size(), map.size());
            assertEquals(reference.isEmpty(), map.isEmpty());
        }
    }
}
