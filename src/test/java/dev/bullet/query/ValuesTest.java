package dev.bullet.query;

import dev.bullet.record.RecordDecoder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ValuesTest {
    /**
     * What asNumber answered before words were turned away without parsing: nothing unless it starts as a number
     * does (a digit, a sign or a point), else Long.parseLong, else Double.parseDouble.
     */
    private static Object parsed(String s) {
        String t = s.trim();
        if (t.isEmpty() || !Character.isDigit(t.charAt(0)) && "+-.".indexOf(t.charAt(0)) < 0) {
            return null;
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException f) {
                return null;
            }
        }
    }

    @Test
    void numbersReadAsJavaReadsThemAndWordsAreNoNumber() {
        List<String> cases = List.of("1", "-3", "+5", "2.5", "1e3", "-1E-3", "1e400", "-0", "0.0", "9223372036854775807",
                                     "9223372036854775808", "-9223372036854775809", "1d", "2.5f", "3D", "0x1p3", "0X1P-2",
                                     "Infinity", "-Infinity", "+NaN", "NaN", "13jo83", "0qdl50", "3kjtc5", "3bcd1e",
                                     "1e", "1.", ".5", "-", "+", "--1", " 7 ", "1 2", "0x10", "12abc", "1_000");
        for (String c : cases) {
            Object expected = parsed(c);
            Object actual = Values.asNumber(c);
            if (expected == null) {
                assertNull(actual, c);
            } else {
                assertEquals(((Number) expected).doubleValue(), ((Number) actual).doubleValue(), 0.0, c);
            }
        }
        assertEquals(5L, Values.asNumber("+5"));
        assertEquals(Double.class, Values.asNumber("9223372036854775808").getClass());
        assertEquals(Long.MIN_VALUE, RecordDecoder.toNumber("-9223372036854775808"));
        assertEquals(1.0, RecordDecoder.toNumber("1d"));
    }
}
