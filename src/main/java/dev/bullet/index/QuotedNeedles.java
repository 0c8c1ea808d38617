package dev.bullet.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Whether any of a few texts occurs, quoted, in a stretch of a record's bytes: {@code "k4"} or {@code "hasi"} with
 * their quotes. In JSON without escapes a key or a string value equal to a text is exactly its quoted bytes, so when
 * none occurs in a container's bytes no key or string in it, at any depth, is one of the texts — and a CONTAINSKEY or
 * CONTAINSVALUE index waiting only for these texts has nothing to look up there, without walking the container.
 * An occurrence proves nothing (the bytes {@code ","} between two strings are a quoted comma): the caller walks then.
 *
 * <p>The search reads eight positions at a time: the bytes that are a quote, and the bytes after them that are a
 * text's first character; only where both hold is a text compared. Kept to a few texts with a few distinct first
 * characters ({@link #of} says null beyond that): each first character is one more compare per eight bytes.
 * Immutable.
 */
final class QuotedNeedles {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long QUOTES = ONES * '"';
    /** At most this many texts: beyond it walking the container costs less than comparing them all. */
    static final int MAX_TEXTS = 8;
    /** At most this many distinct first characters among the texts. */
    static final int MAX_FIRSTS = 4;

    /** The quoted texts, grouped by their first character (after the quote). */
    private final byte[][][] byFirst;
    /** Each group's first character, repeated in the eight bytes of a word. */
    private final long[] firsts;
    /** The same, as four fields (a missing group repeats the first): the search compares all four, branch-free. */
    private final long first0;
    private final long first1;
    private final long first2;
    private final long first3;
    private final int shortest;

    private QuotedNeedles(byte[][][] byFirst, long[] firsts, int shortest) {
        this.byFirst = byFirst;
        this.firsts = firsts;
        this.first0 = firsts[0];
        this.first1 = firsts[Math.min(1, firsts.length - 1)];
        this.first2 = firsts[Math.min(2, firsts.length - 1)];
        this.first3 = firsts[Math.min(3, firsts.length - 1)];
        this.shortest = shortest;
    }

    /**
     * The needles of these texts, or null when they cannot be searched this way: too many of them, too many first
     * characters, or a text that is not printable ASCII without quote or backslash (such a text needs no search, but
     * one rule for all keeps the index simple).
     */
    static QuotedNeedles of(Collection<String> texts) {
        if (texts.isEmpty() || texts.size() > MAX_TEXTS) {
            return null;
        }
        List<Byte> firstChars = new ArrayList<>();
        List<List<byte[]>> groups = new ArrayList<>();
        int shortest = Integer.MAX_VALUE;
        for (String text : texts) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                    return null;
                }
            }
            byte[] quoted = ("\"" + text + "\"").getBytes(StandardCharsets.US_ASCII);
            byte first = quoted[1]; // the closing quote for the empty text
            int group = firstChars.indexOf(first);
            if (group < 0) {
                if (firstChars.size() == MAX_FIRSTS) {
                    return null;
                }
                firstChars.add(first);
                groups.add(new ArrayList<>());
                group = firstChars.size() - 1;
            }
            groups.get(group).add(quoted);
            shortest = Math.min(shortest, quoted.length);
        }
        byte[][][] byFirst = new byte[groups.size()][][];
        long[] firsts = new long[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            byFirst[g] = groups.get(g).toArray(new byte[0][]);
            firsts[g] = ONES * (firstChars.get(g) & 0xFF);
        }
        return new QuotedNeedles(byFirst, firsts, shortest);
    }

    /** Whether one of the quoted texts occurs in {@code data[from, to)}. */
    boolean occursIn(byte[] data, int from, int to) {
        int last = to - shortest; // the last position a quoted text can start at
        int i = from;
        // a word at i and one at i + 1: stop while both lie inside the array
        for (; i <= last && i + 9 <= data.length; i += 8) {
            long here = (long) LONGS.get(data, i);
            long next = (long) LONGS.get(data, i + 1);
            long firstHits = zeroBytes(next ^ first0) | zeroBytes(next ^ first1) | zeroBytes(next ^ first2)
                             | zeroBytes(next ^ first3);
            long hits = zeroBytes(here ^ QUOTES) & firstHits;
            while (hits != 0) {
                int at = i + (Long.numberOfTrailingZeros(hits) >>> 3);
                if (at <= last && matchesAt(data, at, to)) {
                    return true;
                }
                hits &= hits - 1;
            }
        }
        for (; i <= last; i++) {
            if (data[i] == '"' && matchesAt(data, i, to)) {
                return true;
            }
        }
        return false;
    }

    /** Whether one of the quoted texts starts at {@code at} (a quote) and ends by {@code to}. */
    private boolean matchesAt(byte[] data, int at, int to) {
        byte first = data[at + 1];
        for (int g = 0; g < byFirst.length; g++) {
            if ((byte) firsts[g] != first) {
                continue;
            }
            for (byte[] needle : byFirst[g]) {
                int end = at + needle.length;
                if (end <= to && Arrays.equals(data, at, end, needle, 0, needle.length)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The high bit of exactly the bytes of {@code x} that are zero. */
    private static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }
}
