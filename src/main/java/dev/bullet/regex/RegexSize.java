package dev.bullet.regex;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * An upper estimate of how large a regular expression's compiled program gets: counted repetitions
 * multiply what they repeat, so a short pattern such as {@code ((a{1000}){1000}){1000}} would need 10^9 instructions
 * and exhaust the heap while compiling (RE2/J checks each count, not their product). One iterative pass: literals,
 * escapes and character classes count 1, a group counts its content, a repetition {@code {n,m}} multiplies the item
 * before it by its largest count, alternatives add up. Saturates at {@link Long#MAX_VALUE}.
 */
public final class RegexSize {
    /** The largest estimated program size a query may use. */
    public static final long MAX = 100_000;

    private RegexSize() {
    }

    public static long estimate(String p) {
        Deque<long[]> groups = new ArrayDeque<>(); // per open group: {sum so far}
        long sum = 0;
        long last = 0; // size of the item just before the current position (what a quantifier repeats)
        int n = p.length();
        for (int i = 0; i < n; i++) {
            char c = p.charAt(i);
            switch (c) {
                case '\\' -> {
                    i++;
                    if (i < n && (p.charAt(i) == 'p' || p.charAt(i) == 'P') && i + 1 < n && p.charAt(i + 1) == '{') {
                        int close = p.indexOf('}', i);
                        i = close < 0 ? n : close;
                    }
                    last = 1;
                    sum = add(sum, 1);
                }
                case '[' -> {
                    int j = i + 1;
                    if (j < n && p.charAt(j) == '^') {
                        j++;
                    }
                    if (j < n && p.charAt(j) == ']') {
                        j++;
                    }
                    while (j < n && p.charAt(j) != ']') {
                        if (p.charAt(j) == '\\') {
                            j++;
                        } else if (p.charAt(j) == '[' && j + 1 < n && p.charAt(j + 1) == ':') {
                            int close = p.indexOf(":]", j + 2);
                            j = close < 0 ? n : close + 1;
                        }
                        j++;
                    }
                    i = j;
                    last = 1;
                    sum = add(sum, 1);
                }
                case '(' -> {
                    groups.push(new long[]{sum});
                    sum = 0;
                    last = 0;
                }
                case ')' -> {
                    long inner = sum;
                    sum = groups.isEmpty() ? 0 : groups.pop()[0];
                    last = inner + 1;
                    sum = add(sum, last);
                }
                case '{' -> {
                    int close = p.indexOf('}', i);
                    long count = close < 0 ? -1 : count(p.substring(i + 1, close));
                    if (count < 0) {
                        last = 1; // a literal brace
                        sum = add(sum, 1);
                    } else {
                        // the item was counted once already: it now counts count times
                        sum = add(sum, mul(last, Math.max(0, count - 1)));
                        last = mul(last, count);
                        i = close;
                    }
                }
                case '*', '+', '?', '|', '^', '$' -> sum = add(sum, 1);
                default -> {
                    last = 1;
                    sum = add(sum, 1);
                }
            }
        }
        while (!groups.isEmpty()) {
            sum = add(groups.pop()[0], sum);
        }
        return sum;
    }

    /** The largest count of {@code n}, {@code n,} or {@code n,m}; -1 when it is not a repetition. */
    private static long count(String body) {
        if (!body.matches("\\d{1,9}(,\\d{0,9})?")) {
            return -1;
        }
        String[] parts = body.split(",", -1);
        long low = Long.parseLong(parts[0]);
        if (parts.length == 1) {
            return low;
        }
        return parts[1].isEmpty() ? low + 1 : Math.max(low, Long.parseLong(parts[1]));
    }

    private static long add(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    private static long mul(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}
