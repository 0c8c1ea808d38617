package dev.bullet.regex;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class HexEscapeTest {
    @Test
    void readsBothFormsAndWhereTheyEnd() {
        assertEquals(new HexEscape(0x41, 4), HexEscape.at("\\x41b", 2));
        assertEquals(new HexEscape(0x2028, 8), HexEscape.at("\\x{2028}", 2));
        assertEquals(new HexEscape(0x10FFFF, 10), HexEscape.at("\\x{10FFFF}", 2));
    }

    @Test
    void anythingElseIsNone() {
        for (String p : new String[] {"\\x4", "\\x", "\\xg1", "\\x{}", "\\x{12", "\\x{110000}", "\\x{1234567}",
                                      "\\x{+1}"}) {
            assertNull(HexEscape.at(p, 2), p);
        }
    }
}
