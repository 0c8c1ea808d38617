package dev.bullet.querying.aggregations;

import org.apache.datasketches.tuple.Sketch;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/** Builds the {@code meta.sketches} entries of SPEC §6.8 from DataSketches objects, under their concept names. */
final class SketchMetadata {
    private SketchMetadata() {
    }

    static Map<String, Object> standardDeviations(IntToDoubleFunction upper, IntToDoubleFunction lower) {
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 1; i <= 3; i++) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("upperBound", upper.applyAsDouble(i));
            b.put("lowerBound", lower.applyAsDouble(i));
            result.put(Integer.toString(i), b);
        }
        return result;
    }

    private static Map<String, Object> common(boolean estimated, IntToDoubleFunction upper, IntToDoubleFunction lower,
                                              String family, int size, double theta, double estimate) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("was_estimated", estimated);
        meta.put("standard_deviations", standardDeviations(upper, lower));
        meta.put("family", family);
        meta.put("size", size);
        meta.put("theta", theta);
        meta.put("uniques_estimate", estimate);
        return meta;
    }

    static Map<String, Object> of(Sketch<?> sketch) {
        return common(sketch.isEstimationMode(), sketch::getUpperBound, sketch::getLowerBound, "TUPLE",
                      sketch.getRetainedEntries(), sketch.getTheta(), sketch.getEstimate());
    }

    // name clash: the tuple Sketch is imported
    static Map<String, Object> of(org.apache.datasketches.theta.Sketch sketch) {
        return common(sketch.isEstimationMode(), sketch::getUpperBound, sketch::getLowerBound,
                      sketch.getFamily().getFamilyName(), sketch.getCurrentBytes(), sketch.getTheta(), sketch.getEstimate());
    }
}
