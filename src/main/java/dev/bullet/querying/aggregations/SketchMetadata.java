package dev.bullet.querying.aggregations;

import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the {@code meta.sketches} entries of SPEC §6.8 from DataSketches objects, under their concept names. */
final class SketchMetadata {
    private SketchMetadata() {
    }

    interface Bounds {
        double upper(int stdDevs);

        double lower(int stdDevs);
    }

    static Map<String, Object> standardDeviations(Bounds bounds) {
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 1; i <= 3; i++) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("upperBound", bounds.upper(i));
            b.put("lowerBound", bounds.lower(i));
            result.put(Integer.toString(i), b);
        }
        return result;
    }

    static Map<String, Object> of(org.apache.datasketches.tuple.Sketch<?> sketch) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("was_estimated", sketch.isEstimationMode());
        meta.put("standard_deviations", standardDeviations(new Bounds() {
            @Override
            public double upper(int k) {
                return sketch.getUpperBound(k);
            }

            @Override
            public double lower(int k) {
                return sketch.getLowerBound(k);
            }
        }));
        meta.put("family", "TUPLE");
        meta.put("size", sketch.getRetainedEntries());
        meta.put("theta", sketch.getTheta());
        meta.put("uniques_estimate", sketch.getEstimate());
        return meta;
    }

    static Map<String, Object> of(org.apache.datasketches.theta.Sketch sketch) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("was_estimated", sketch.isEstimationMode());
        meta.put("standard_deviations", standardDeviations(new Bounds() {
            @Override
            public double upper(int k) {
                return sketch.getUpperBound(k);
            }

            @Override
            public double lower(int k) {
                return sketch.getLowerBound(k);
            }
        }));
        meta.put("family", sketch.getFamily().getFamilyName());
        meta.put("size", sketch.getCurrentBytes());
        meta.put("theta", sketch.getTheta());
        meta.put("uniques_estimate", sketch.getEstimate());
        return meta;
    }
}
