package dev.bullet.generator;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The fixed word lists the {@link RecordGenerator} draws string values from. They do not depend on the
 * generator's seed, so a value such as {@code "alpha"} or {@code "bo"} means the same in every data set.
 *
 * <p>{@link #word(int)}: indices 0..99 are the 100 two-letter consonant-vowel words ({@code "ba"}, {@code "be"},
 * ...), indices 100..9,999 are distinct four-letter words in a fixed shuffled order. A field with
 * cardinality {@code n} draws from the first {@code n} words. Immutable, thread-safe.
 */
final class Vocabulary {
    /** Number of distinct words {@link #word(int)} knows. */
    static final int SIZE = 10_000;

    /** The values of the ten-valued field {@code s_00}. */
    private static final byte[][] NATO = ascii(new String[] {
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett"});

    private static final String CONSONANTS = "bcdfghjklmnprstvwxyz";
    private static final String VOWELS = "aeiou";
    private static final byte[][] WORDS = buildWords();

    private Vocabulary() {
    }

    static byte[] word(int index) {
        return WORDS[index];
    }

    static byte[] nato(int index) {
        return NATO[index];
    }

    static int natoSize() {
        return NATO.length;
    }

    private static byte[][] buildWords() {
        String[] syllables = new String[CONSONANTS.length() * VOWELS.length()];
        int s = 0;
        for (int c = 0; c < CONSONANTS.length(); c++) {
            for (int v = 0; v < VOWELS.length(); v++) {
                syllables[s++] = "" + CONSONANTS.charAt(c) + VOWELS.charAt(v);
            }
        }
        int[] pairs = new int[syllables.length * syllables.length];
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = i;
        }
        SplittableRandom random = new SplittableRandom(0x5EEDL);
        for (int i = pairs.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = pairs[i];
            pairs[i] = pairs[j];
            pairs[j] = t;
        }
        String[] words = new String[SIZE];
        System.arraycopy(syllables, 0, words, 0, syllables.length);
        for (int i = syllables.length; i < SIZE; i++) {
            int pair = pairs[i - syllables.length];
            words[i] = syllables[pair / syllables.length] + syllables[pair % syllables.length];
        }
        return ascii(words);
    }

    private static byte[][] ascii(String[] words) {
        byte[][] out = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            out[i] = words[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }
}
