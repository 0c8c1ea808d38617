package dev.bullet.index;

import dev.bullet.common.Swar;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static dev.bullet.common.Swar.zeroBytes;

/**
 * Whether any of a few texts occurs, quoted, in a stretch of a record's bytes: {@code "k4"} or {@code "hasi"} with
 * their quotes. In JSON without escapes a key or a string value equal to a text is exactly its quoted bytes, so when
 * none occurs in a container's bytes no key or string in it, at any depth, is one of the texts — and a CONTAINSKEY or
 * CONTAINSVALUE index waiting only for these texts has nothing to look up there, without walking the container.
 * An occurrence proves nothing (the bytes {@code ","} between two strings are a quoted comma): the caller walks then.
 *
 * <p>The search reads eight positions at a time: the bytes that are a quote followed by a text's first two
 * characters; only there is a text compared (keys {@code "k0"} and {@code "k1"} do not stop a search for
 * {@code "k4"}). Kept to a few texts with a few distinct beginnings ({@link #of} says null beyond that).
 * Immutable.
 */
final class QuotedNeedles {
    private static final long QUOTES = Swar.broadcast('"');
    /** At most this many texts: beyond it walking the container costs less than comparing them all. */
    static final int MAX_TEXTS = 8;
    /** At most this many distinct beginnings (a text's first two characters) among the texts. */
    static final int MAX_BEGINNINGS = 4;

    /** The quoted texts. */
    private final byte[][] quoted;
    /**
     * The beginnings, as up to four lanes (a missing one repeats the first): a text's first character and its
     * second (the closing quote for a one-character text) repeated in the eight bytes of a word, and for the empty
     * text, whose second byte after the quote is anything, a second that always matches ({@code any0} to
     * {@code any3}). The search compares the lanes in use for eight positions at once. Fields, not arrays: the
     * search reads them for every word.
     */
    private final long first0;
    private final long first1;
    private final long first2;
    private final long first3;
    private final long second0;
    private final long second1;
    private final long second2;
    private final long second3;
    private final long any0;
    private final long any1;
    private final long any2;
    private final long any3;
    private final int shortest;
    /** How many of the lanes are distinct beginnings. */
    private final int lanes;

    private QuotedNeedles(byte[][] quoted, List<byte[]> beginnings) {
        this.quoted = quoted;
        this.lanes = beginnings.size();
        int shortest = Integer.MAX_VALUE;
        for (byte[] q : quoted) {
            shortest = Math.min(shortest, q.length);
        }
        this.shortest = shortest;
        long[] firsts = new long[MAX_BEGINNINGS];
        long[] seconds = new long[MAX_BEGINNINGS];
        long[] any = new long[MAX_BEGINNINGS];
        for (int lane = 0; lane < MAX_BEGINNINGS; lane++) {
            byte[] b = beginnings.get(Math.min(lane, beginnings.size() - 1));
            firsts[lane] = Swar.broadcast(b[0]);
            seconds[lane] = b.length > 1 ? Swar.broadcast(b[1]) : 0;
            any[lane] = b.length > 1 ? 0 : Swar.HIGH_BITS;
        }
        first0 = firsts[0];
        first1 = firsts[1];
        first2 = firsts[2];
        first3 = firsts[3];
        second0 = seconds[0];
        second1 = seconds[1];
        second2 = seconds[2];
        second3 = seconds[3];
        any0 = any[0];
        any1 = any[1];
        any2 = any[2];
        any3 = any[3];
    }

    /**
     * The needles of these texts, or null when they cannot be searched this way: too many of them, too many
     * beginnings, or a text that is not printable ASCII without quote or backslash (such a text needs no search, but
     * one rule for all keeps the index simple).
     */
    static QuotedNeedles of(Collection<String> texts) {
        if (texts.isEmpty() || texts.size() > MAX_TEXTS) {
            return null;
        }
        List<byte[]> beginnings = new ArrayList<>();
        List<byte[]> quoted = new ArrayList<>();
        for (String text : texts) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                    return null;
                }
            }
            byte[] q = ("\"" + text + "\"").getBytes(StandardCharsets.US_ASCII);
            quoted.add(q);
            byte[] beginning = Arrays.copyOfRange(q, 1, Math.min(3, q.length));
            if (beginnings.stream().noneMatch(b -> Arrays.equals(b, beginning))) {
                if (beginnings.size() == MAX_BEGINNINGS) {
                    return null;
                }
                beginnings.add(beginning);
            }
        }
        return new QuotedNeedles(quoted.toArray(new byte[0][]), beginnings);
    }

    /** Whether one of the quoted texts occurs in {@code data[from, to)}. */
    boolean occursIn(byte[] data, int from, int to) {
        int last = to - shortest; // the last position a quoted text can start at
        int i = from;
        // words at i, i + 1 and i + 2: stop while all lie inside the array
        for (; i <= last && i + 10 <= data.length; i += 8) {
            long here = Swar.word(data, i);
            long next = Swar.word(data, i + 1);
            long after = Swar.word(data, i + 2);
            long begins = zeroBytes(next ^ first0) & (zeroBytes(after ^ second0) | any0);
            if (lanes > 1) { // the same branch for every word of a search: predicted
                begins |= zeroBytes(next ^ first1) & (zeroBytes(after ^ second1) | any1);
                if (lanes > 2) {
                    begins |= zeroBytes(next ^ first2) & (zeroBytes(after ^ second2) | any2);
                    if (lanes > 3) {
                        begins |= zeroBytes(next ^ first3) & (zeroBytes(after ^ second3) | any3);
                    }
                }
            }
            long hits = zeroBytes(here ^ QUOTES) & begins;
            while (hits != 0) {
                int at = i + Swar.firstLane(hits);
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

    /** Whether one of the quoted texts starts at {@code at} and ends by {@code to}. */
    private boolean matchesAt(byte[] data, int at, int to) {
        for (byte[] needle : quoted) {
            int end = at + needle.length;
            if (end <= to && Arrays.equals(data, at, end, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }
}
