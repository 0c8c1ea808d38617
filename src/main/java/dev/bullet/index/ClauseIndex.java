package dev.bullet.index;

import dev.bullet.query.Clause;
import dev.bullet.query.FilterValue;
import dev.bullet.query.Operation;
import dev.bullet.query.ValueType;
import dev.bullet.query.Values;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One kind of secondary index under {@link QueryIndex}: it takes the queries whose filter it can serve and hands out,
 * for a record, every one of them that may match it (it may widen, never narrow). Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
interface ClauseIndex<Q> {
    /** Takes the query if this index can serve its (validated) filter; returns whether it did. */
    default boolean add(Q query, Clause filter) {
        return add(query, filter, true);
    }

    /**
     * {@link #add(Object, Clause)}; with {@code mayDecide} false the index never hands the query out as matched
     * (its filter is a branch of an OR inside an AND: deciding the branch does not decide the query). A query may be
     * added more than once (once per branch of an OR); {@link #remove} takes out every placement.
     */
    boolean add(Q query, Clause filter, boolean mayDecide);

    /** Removes a query this index took; returns whether it had it. */
    boolean remove(Q query);

    /**
     * Hands {@code out} every query of this index that may match each record of the batch (possibly more than once),
     * or as matched a query the index knows matches it (its whole filter decided, no test needed). The batch is read
     * path by path: {@link PathSpans#column} gives a path's spans in all its records.
     */
    void candidates(PathSpans batch, Candidates<Q> out);

    /**
     * The clause a filter requires that an index can take: the filter itself, or else the first conjunct of a
     * top-level AND (nested ANDs too) for which {@code takes} answers a relational clause; null when there is none.
     */
    static Clause.Relational required(Clause filter, Function<Clause, Clause.Relational> takes) {
        Clause.Relational taken = takes.apply(filter);
        if (taken != null) {
            return taken;
        }
        if (filter instanceof Clause.Logical && filter.operation() == Operation.AND) {
            for (Clause c : ((Clause.Logical) filter).clauses()) {
                Clause.Relational r = required(c, takes);
                if (r != null) {
                    return r;
                }
            }
        }
        return null;
    }

    /**
     * Whether every value of the clause is a literal the index reads as plain text ({@link #plainLike}): no null, no
     * FIELD, no type but a STRING that compares as the plain literal does.
     */
    static boolean plainLiterals(Clause.Relational r) {
        for (FilterValue v : r.values()) {
            if (!plainLike(v)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every value of the clause is plain ({@link #plainLike}) or a typed number ({@link #typedNumeric}): what
     * the equality, range and negation indexes take.
     */
    static boolean plainOrNumeric(Clause.Relational r) {
        for (FilterValue v : r.values()) {
            if (!plainLike(v) && !typedNumeric(v)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a value compares with every record value exactly as the plain literal of its text does: a plain
     * literal, or a STRING-typed one — a string with its text, a number with the text's number reading, a boolean with
     * its boolean reading, the same rules — except a STRING whose text reads as a whole double of 2^53 or more below
     * 9e18, which a long value meets as a double, where the plain literal meets it as a long.
     */
    static boolean plainLike(FilterValue v) {
        if (v.kind() != FilterValue.Kind.VALUE || v.value() == null) {
            return false;
        }
        if (v.type() == null) {
            return true;
        }
        if (v.type() != ValueType.STRING) {
            return false;
        }
        Object n = Values.asNumber(v.value());
        double d = n instanceof Double ? Math.abs((Double) n) : 0;
        return !(d == Math.rint(d) && d >= 0x1p53 && d < 9.0e18);
    }

    /**
     * Whether a value is a literal typed as a number (INTEGER, LONG, FLOAT, DOUBLE, as BQL writes its numbers). Such a
     * literal compares with a number value as the plain literal of its number does (long with long exactly, else as
     * doubles), with a string value by the string's number reading (none: incomparable), with nothing else.
     */
    static boolean typedNumeric(FilterValue v) {
        return v.kind() == FilterValue.Kind.VALUE && v.value() != null && v.type() != null && v.type() != ValueType.STRING
               && v.type() != ValueType.BOOLEAN;
    }

    /** The number a {@link #typedNumeric} literal is cast to (a Long or a Double, never NaN), or null when none. */
    static Number typedNumber(FilterValue v) {
        return (Number) v.type().cast(v.value());
    }

    /**
     * Whether a string may have a number reading ({@link Values#asNumber}), from its bytes: its first character after
     * leading characters up to U+0020 (what {@link String#trim} drops) is a digit, a sign or a point. False means
     * surely none.
     */
    static boolean mayBeNumber(byte[] data, int from, int to) {
        int i = from;
        while (i < to && (data[i] & 0xff) <= ' ') {
            i++;
        }
        return i < to && startsNumber((char) data[i]);
    }

    /** {@link #mayBeNumber} of a decoded string (leading characters up to U+0020 trimmed, as {@link String#trim}). */
    static boolean mayBeNumber(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) <= ' ') {
            i++;
        }
        return i < s.length() && startsNumber(s.charAt(i));
    }

    private static boolean startsNumber(char c) {
        return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.';
    }

    /**
     * The number reading of a string given by its bytes (plain: no escape), as a double, as {@link Values#asNumber}
     * reads the decoded string; NaN when it has none (or reads as NaN). Bytes past ASCII read as characters no number
     * holds, as their decoded characters are.
     */
    static double textNumber(byte[] data, int from, int to) {
        if (!mayBeNumber(data, from, to)) {
            return Double.NaN;
        }
        Object n = Values.asNumber(new String(data, from, to - from, StandardCharsets.ISO_8859_1));
        return n == null ? Double.NaN : ((Number) n).doubleValue();
    }

    /**
     * Whether the clause is the whole filter: the filter itself, or the one clause of a logical filter around it (an
     * AND of one, or the NOT a negation index serves). Only then may an index that decides the clause decide the query.
     */
    static boolean isWhole(Clause filter, Clause clause) {
        return filter == clause || filter instanceof Clause.Logical && ((Clause.Logical) filter).clauses().size() == 1
                                   && ((Clause.Logical) filter).clauses().get(0) == clause;
    }

    /** Visits every query of a list that may be null. */
    static <Q> void visitAll(List<Q> queries, Consumer<Q> visit) {
        if (queries != null) {
            for (int i = 0, n = queries.size(); i < n; i++) {
                visit.accept(queries.get(i));
            }
        }
    }
}
