package dev.bullet.query.expr;

import java.util.HashMap;
import java.util.Map;

/**
 * The operations of bullet-core 1.5.2's expressions, each with its BQL spelling (the JSON form's {@code "op"}) and
 * where it may appear: in a {@link BinaryExpr}, a {@link UnaryExpr} or an {@link NAryExpr} (AND and OR are both binary
 * and n-ary).
 */
public enum Op {
    ADD("+", Arity.BINARY),
    SUB("-", Arity.BINARY),
    MUL("*", Arity.BINARY),
    DIV("/", Arity.BINARY),
    MOD("%", Arity.BINARY),
    EQUALS("=", Arity.BINARY),
    EQUALS_ANY("= ANY", Arity.BINARY),
    EQUALS_ALL("= ALL", Arity.BINARY),
    NOT_EQUALS("!=", Arity.BINARY),
    NOT_EQUALS_ANY("!= ANY", Arity.BINARY),
    NOT_EQUALS_ALL("!= ALL", Arity.BINARY),
    GREATER_THAN(">", Arity.BINARY),
    GREATER_THAN_ANY("> ANY", Arity.BINARY),
    GREATER_THAN_ALL("> ALL", Arity.BINARY),
    LESS_THAN("<", Arity.BINARY),
    LESS_THAN_ANY("< ANY", Arity.BINARY),
    LESS_THAN_ALL("< ALL", Arity.BINARY),
    GREATER_THAN_OR_EQUALS(">=", Arity.BINARY),
    GREATER_THAN_OR_EQUALS_ANY(">= ANY", Arity.BINARY),
    GREATER_THAN_OR_EQUALS_ALL(">= ALL", Arity.BINARY),
    LESS_THAN_OR_EQUALS("<=", Arity.BINARY),
    LESS_THAN_OR_EQUALS_ANY("<= ANY", Arity.BINARY),
    LESS_THAN_OR_EQUALS_ALL("<= ALL", Arity.BINARY),
    REGEX_LIKE("RLIKE", Arity.BINARY),
    REGEX_LIKE_ANY("RLIKE ANY", Arity.BINARY),
    NOT_REGEX_LIKE("NOT RLIKE", Arity.BINARY),
    NOT_REGEX_LIKE_ANY("NOT RLIKE ANY", Arity.BINARY),
    SIZE_IS("SIZEIS", Arity.BINARY),
    CONTAINS_KEY("CONTAINSKEY", Arity.BINARY),
    CONTAINS_VALUE("CONTAINSVALUE", Arity.BINARY),
    IN("IN", Arity.BINARY),
    NOT_IN("NOT IN", Arity.BINARY),
    AND("AND", Arity.BINARY_OR_N_ARY),
    OR("OR", Arity.BINARY_OR_N_ARY),
    XOR("XOR", Arity.BINARY),
    FILTER("FILTER", Arity.BINARY),
    NOT("NOT", Arity.UNARY),
    SIZE_OF("SIZEOF", Arity.UNARY),
    IS_NULL("IS NULL", Arity.UNARY),
    IS_NOT_NULL("IS NOT NULL", Arity.UNARY),
    TRIM("TRIM", Arity.UNARY),
    ABS("ABS", Arity.UNARY),
    IF("IF", Arity.N_ARY),
    BETWEEN("BETWEEN", Arity.N_ARY),
    NOT_BETWEEN("NOT BETWEEN", Arity.N_ARY),
    SUBSTRING("SUBSTRING", Arity.N_ARY),
    UNIX_TIMESTAMP("UNIXTIMESTAMP", Arity.N_ARY),
    LOWER("LOWER", Arity.UNARY),
    UPPER("UPPER", Arity.UNARY),
    HASH("HASH", Arity.UNARY);

    private enum Arity { UNARY, BINARY, N_ARY, BINARY_OR_N_ARY }

    private static final Map<String, Op> BY_NAME = new HashMap<>();

    static {
        for (Op op : values()) {
            BY_NAME.put(op.symbol, op);
            BY_NAME.put(op.name(), op);
        }
    }

    private final String symbol;
    private final Arity arity;

    Op(String symbol, Arity arity) {
        this.symbol = symbol;
        this.arity = arity;
    }

    /** The BQL spelling, e.g. {@code "+"}, {@code "= ANY"}, {@code "IS NULL"}: the JSON form's {@code "op"}. */
    public String symbol() {
        return symbol;
    }

    public boolean isUnary() {
        return arity == Arity.UNARY;
    }

    public boolean isBinary() {
        return arity == Arity.BINARY || arity == Arity.BINARY_OR_N_ARY;
    }

    public boolean isNAry() {
        return arity == Arity.N_ARY || arity == Arity.BINARY_OR_N_ARY;
    }

    /** Whether this is a comparison ({@code =}, {@code !=}, {@code >}, {@code <}, {@code >=}, {@code <=}). */
    public boolean isComparison() {
        return this == EQUALS || this == NOT_EQUALS || this == GREATER_THAN || this == LESS_THAN
                || this == GREATER_THAN_OR_EQUALS || this == LESS_THAN_OR_EQUALS;
    }

    /** Whether this is a comparison with a list on its right ({@code = ANY}, {@code < ALL}, ...). */
    public boolean isQuantified() {
        return name().endsWith("_ANY") && !name().contains("REGEX") || name().endsWith("_ALL");
    }

    /** Whether this is + - * / %. */
    public boolean isArithmetic() {
        return this == ADD || this == SUB || this == MUL || this == DIV || this == MOD;
    }

    /** The operation spelled {@code text} (its symbol, e.g. {@code "= ANY"}, or its constant name), or null. */
    public static Op named(String text) {
        return BY_NAME.get(text);
    }

    /** The operand counts an n-ary operation takes: {min, max}. */
    public int[] operandCounts() {
        return switch (this) {
            case BETWEEN, NOT_BETWEEN -> new int[] {3, 3};
            case SUBSTRING -> new int[] {2, 3};
            case UNIX_TIMESTAMP -> new int[] {0, 2};
            default -> new int[] {1, Integer.MAX_VALUE};
        };
    }

    @Override
    public String toString() {
        return symbol;
    }
}
