package dev.bullet.query;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The operations of a filter clause (SPEC §6.2), with their JSON spellings. */
public enum Operation {
    EQUALS("=="), NOT_EQUALS("!="), GREATER_THAN(">"), LESS_THAN("<"), GREATER_EQUALS(">="), LESS_EQUALS("<="),
    REGEX_LIKE("RLIKE"), SIZE_IS("SIZEIS"), CONTAINS_KEY("CONTAINSKEY"), CONTAINS_VALUE("CONTAINSVALUE"),
    AND("AND"), OR("OR"), NOT("NOT");

    private final String json;

    Operation(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }

    public boolean isLogical() {
        return this == AND || this == OR || this == NOT;
    }

    public boolean isRange() {
        return this == GREATER_THAN || this == LESS_THAN || this == GREATER_EQUALS || this == LESS_EQUALS;
    }

    /** The operation with this JSON spelling (operators exactly, words case-insensitively), or {@code null}. */
    public static Operation fromJson(String text) {
        for (Operation op : values()) {
            if (op.json.equalsIgnoreCase(text.trim())) {
                return op;
            }
        }
        return null;
    }

    public static String allSpellings() {
        return Arrays.stream(values()).map(Operation::json).collect(Collectors.joining(", "));
    }
}
