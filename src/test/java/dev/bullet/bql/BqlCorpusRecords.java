package dev.bullet.bql;

import java.util.ArrayList;
import java.util.List;

/**
 * The records {@link BqlCorpusTest} runs every corpus query over: {@link BqlDifferentialTest#recordsWithNulls()}
 * (fields {@code id n d b s m l t o}) with, on each of the 60 regular ones, the fields bullet-bql 1.3.2's tests name
 * (typed as its test schema types them: {@code abc} INTEGER, {@code def} FLOAT, {@code aaa} STRING_MAP_LIST,
 * {@code bbb} STRING_MAP_MAP, {@code ccc} INTEGER_LIST, {@code ddd} STRING_MAP, {@code eee} STRING_LIST, {@code fff}
 * DOUBLE_MAP_MAP, {@code a} LONG, {@code c} STRING, and {@code foo}, {@code bar}) and those of the Bullet
 * documentation's examples ({@code demographics}, {@code browser_name}, {@code duration}, ...). Some are missing
 * on some records, so nulls are met everywhere; groups stay below ten so LIMIT 10 keeps them all. A top-level
 * {@code null} is left out (a bullet-core record has no null fields: the reference skips them when it decodes).
 */
final class BqlCorpusRecords {
    private static final String[] WORDS = {"foo", "bar", "baz", "abc"};
    private static final String[] BROWSERS = {"chrome", "firefox", "safari"};
    private static final String[] COUNTRIES = {"us", "uk", "in"};
    private static final String[] STATES = {"california", "texas"};
    private static final String[] COLORS = {"red", "green", "blue", "yellow"};

    private BqlCorpusRecords() {
    }

    static List<String> records() {
        List<String> base = BqlDifferentialTest.recordsWithNulls();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < base.size(); i++) {
            String line = base.get(i);
            out.add(i < 60 ? line.substring(0, line.length() - 1) + extra(i) + "}" : line.replaceAll(",\"\\w+\":null", ""));
        }
        return out;
    }

    private static String extra(int i) {
        StringBuilder r = new StringBuilder();
        if (i % 10 != 9) {
            r.append(",\"abc\":").append(i % 6);
        }
        r.append(",\"def\":").append(i % 4 * 2.5).append(",\"a\":").append(i * 1000L);
        r.append(",\"c\":\"").append(WORDS[i % 4]).append('"');
        if (i % 3 != 0) {
            r.append(",\"aaa\":[{\"def\":\"x").append(i % 3).append("\",\"one\":\"1\"},{\"def\":\"y\"}]");
        }
        r.append(",\"bbb\":{\"def\":{\"one\":\"v").append(i % 2).append("\",\"two\":\"w\"},\"abc\":{\"one\":\"z\"}}");
        r.append(",\"ccc\":[").append(i % 5).append(',').append(i % 5 + 1).append(",7]");
        r.append(",\"ddd\":{\"abc\":\"s").append(i % 3).append("\",\"k\":\"v\"}");
        r.append(i % 7 == 6 ? ",\"eee\":[]" : ",\"eee\":[\"foo\",\"e" + (i % 4) + "\"]");
        r.append(",\"fff\":{\"x\":{\"y\":").append(i * 0.5).append("}}");
        r.append(",\"foo\":").append(i % 3).append(",\"bar\":\"bar").append(i % 2).append('"');
        docs(r, i);
        return r.toString();
    }

    /** The fields of the documentation's examples. */
    private static void docs(StringBuilder r, int i) {
        r.append(",\"demographics\":{\"age\":\"").append(20 + i * 7 % 60).append("\",\"state\":\"")
         .append(STATES[i % 2]).append("\",\"country\":\"").append(COUNTRIES[i % 3]).append("\"}");
        r.append(",\"browser_name\":\"").append(BROWSERS[i % 3]).append("\",\"browser_version\":\"").append(i % 2 + 1)
         .append("\",\"os_name\":\"").append(i % 2 == 0 ? "mac os" : "linux").append("\",\"os_version\":\"")
         .append(i % 4).append("\",\"device\":\"").append(i % 2 == 0 ? "tablet" : "phone").append('"');
        r.append(",\"timespent\":").append(i * 13 % 100).append(",\"duration\":").append(i * 750)
         .append(",\"heart_rate\":").append(60 + i).append(",\"color\":\"").append(COLORS[i % 4]).append('"');
        r.append(",\"page_id\":\"").append(i % 3 == 0 ? "18025" : i % 3 == 1 ? "47729" : "1").append('"');
        r.append(",\"data_map\":{\"id\":\"").append(i % 5 == 0 ? "btsg8l9b234ha" : "x").append("\",\"k\":\"v\"")
         .append(i % 2 == 0 ? ",\"k2\":\"a\",\"k3\":\"b\"}" : "}");
        r.append(",\"tags\":{\"player\":\"").append(i % 4 == 0).append("\"}");
        r.append(",\"test_scores\":{\"alice\":").append(70 + i % 20).append(",\"bob\":").append(60 + i * 3 % 40).append('}');
        r.append(",\"tests\":[{\"carl\":").append(75 + i % 10).append("},{\"dora\":").append(50 + i % 40).append("}]");
        r.append(",\"event_timestamp\":").append(i).append(",\"ip_address\":\"10.0.0.").append(i % 7).append('"');
        r.append(",\"browser-id\":\"").append(i % 8 == 0 ? "2siknmdd6kaqm" : "other").append('"');
        if (i % 6 == 0) {
            r.append(",\"uid\":\"r").append(String.format("%02d", i)).append('"');
        }
        r.append(",\"experience\":\"").append(i % 2 == 0 ? "web" : "app").append("\",\"link_id\":\"").append(i % 30)
         .append('"');
        r.append(",\"timestamp\":").append(1446842189000L + i).append(",\"device_timestamp\":").append(1446842188000L + i)
         .append(",\"event\":\"view\",\"page_domain\":\"www.yahoo.com\"");
    }
}
