package dev.bullet.regex;

/**
 * A hexadecimal character escape, {@code \xHH} or {@code \x{H...}} (the same in Java's syntax and RE2's): the
 * character's code and where the escape ends.
 */
record HexEscape(int codePoint, int end) {
    /** The escape whose digits start at {@code at}, just after its 'x'; null when none well formed starts there. */
    static HexEscape at(String pattern, int at) {
        int from = at;
        int to;
        int end;
        if (at < pattern.length() && pattern.charAt(at) == '{') {
            from = at + 1;
            to = pattern.indexOf('}', from);
            end = to + 1;
        } else {
            to = at + 2;
            end = to;
        }
        if (to < 0 || to > pattern.length() || to == from || to - from > 6) {
            return null;
        }
        int code = 0;
        for (int i = from; i < to; i++) {
            int digit = Character.digit(pattern.charAt(i), 16);
            if (digit < 0) {
                return null;
            }
            code = code * 16 + digit;
        }
        return code > Character.MAX_CODE_POINT ? null : new HexEscape(code, end);
    }
}
