package dev.bullet.common;

/**
 * How deep JSON text nests, found by one iterative pass (no recursion, so a 100,000-deep input cannot overflow the
 * stack): brackets and braces outside strings are counted, strings are skipped with their escapes. Run before any
 * recursive parse. The text need not be valid JSON; the count is what a parser would have to recurse through.
 */
public final class JsonDepth {
    private JsonDepth() {
    }

    /** Whether UTF-8 JSON bytes nest deeper than {@code limit} levels (the outermost object or list is level 1). */
    public static boolean exceeds(byte[] b, int limit) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0, n = b.length; i < n; i++) {
            byte c = b[i];
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > limit) {
                    return true;
                }
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return false;
    }

    /** Whether JSON text nests deeper than {@code limit} levels (the outermost object or list is level 1). */
    public static boolean exceeds(CharSequence text, int limit) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > limit) {
                    return true;
                }
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return false;
    }
}
