package dev.bullet.index;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuotedNeedlesTest {
    /** The quoted text occurs in {@code data[from, to)}, the slow way. */
    private static boolean naive(Set<String> texts, byte[] data, int from, int to) {
        for (String text : texts) {
            byte[] needle = ("\"" + text + "\"").getBytes(StandardCharsets.US_ASCII);
            for (int at = from; at + needle.length <= to; at++) {
                if (Arrays.equals(data, at, at + needle.length, needle, 0, needle.length)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void findsQuotedTextsOnlyWholeAndWithinTheRange() {
        QuotedNeedles needles = QuotedNeedles.of(List.of("k4", "hasi"));
        byte[] data = "{\"k0\":\"hasix\",\"k1\":\"k4x\",\"k4\":\"x\"}".getBytes(StandardCharsets.US_ASCII);
        assertTrue(needles.occursIn(data, 0, data.length));
        int k4 = new String(data, StandardCharsets.US_ASCII).indexOf("\"k4\"");
        assertFalse(needles.occursIn(data, 0, k4 + 3), "the closing quote lies past the range");
        assertFalse(needles.occursIn(data, k4 + 1, data.length), "the opening quote lies before the range");
        assertTrue(needles.occursIn(data, k4, k4 + 4));
        byte[] none = "{\"k0\":\"hasix\",\"k1\":\"xhasi\"}".getBytes(StandardCharsets.US_ASCII);
        assertFalse(needles.occursIn(none, 0, none.length), "a text inside a longer string is no occurrence");
    }

    @Test
    void searchableTextsOnly() {
        assertNull(QuotedNeedles.of(List.of()));
        assertNull(QuotedNeedles.of(List.of("a\"b")));
        assertNull(QuotedNeedles.of(List.of("a\\b")));
        assertNull(QuotedNeedles.of(List.of("\u00e9")));
        assertNull(QuotedNeedles.of(List.of("a", "b", "c", "d", "e")), "five beginnings");
        assertNotNull(QuotedNeedles.of(List.of("ab", "ab1", "ab2", "a", "b", "c")), "four beginnings");
        assertNull(QuotedNeedles.of(List.of("ab1", "ab2", "ab3", "ab4", "ab5", "ab6", "ab7", "ab8", "ab9")),
                   "nine texts");
        assertNotNull(QuotedNeedles.of(List.of("ab1", "ab2", "ab3", "ab4", "ab5", "ab6", "ab7", "ab8")));
        assertNotNull(QuotedNeedles.of(List.of("")));
    }

    /**
     * Random texts over a small alphabet (so occurrences, near misses and texts sharing a first character are common)
     * in random JSON-like bytes, at every offset and length, near the array's end too: the same answer as the naive
     * search, for every range.
     */
    @Test
    void agreesWithANaiveSearchOnEveryRange() {
        Random random = new Random(20261126L);
        String alphabet = "ab\"k0,:{}";
        int occurred = 0;
        for (int trial = 0; trial < 3_000; trial++) {
            Set<String> texts = new LinkedHashSet<>();
            for (int t = 1 + random.nextInt(4); t > 0; t--) {
                StringBuilder text = new StringBuilder();
                for (int c = random.nextInt(4); c > 0; c--) {
                    text.append("abk0".charAt(random.nextInt(4)));
                }
                texts.add(text.toString());
            }
            QuotedNeedles needles = QuotedNeedles.of(new ArrayList<>(texts));
            assertNotNull(needles, texts.toString());
            byte[] data = new byte[random.nextInt(40)];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
            }
            for (int from = 0; from <= data.length; from++) {
                for (int to = from; to <= data.length; to++) {
                    boolean expected = naive(texts, data, from, to);
                    occurred += expected ? 1 : 0;
                    assertEquals(expected, needles.occursIn(data, from, to),
                                 texts + " in " + new String(data, StandardCharsets.US_ASCII) + " [" + from + ", " + to
                                 + ")");
                }
            }
        }
        assertTrue(occurred > 10_000, "the draws must hold occurrences: " + occurred);
    }
}
