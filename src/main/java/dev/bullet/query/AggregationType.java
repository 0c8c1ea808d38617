package dev.bullet.query;

import java.util.Locale;

/** The aggregation types of SPEC §6.4. */
public enum AggregationType {
    RAW, GROUP, COUNT_DISTINCT, DISTRIBUTION, TOP_K;

    /** Parses {@code RAW}, {@code LIMIT}, {@code GROUP}, {@code COUNT DISTINCT}, {@code DISTRIBUTION}, {@code TOP K}, any case. */
    public static AggregationType fromJson(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT).replace('_', ' ').replaceAll("\\s+", " ");
        switch (t) {
            case "RAW":
            case "LIMIT":
                return RAW;
            case "GROUP":
                return GROUP;
            case "COUNT DISTINCT":
                return COUNT_DISTINCT;
            case "DISTRIBUTION":
                return DISTRIBUTION;
            case "TOP K":
                return TOP_K;
            default:
                return null;
        }
    }
}
