package dev.bullet.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.common.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Writes the BQL form of each JSON query of a query set, one per line: the realistic mix as a team moving over from
 * the original Bullet would write it, to compare the two forms' rates. Only the shapes the query sets use are
 * written (relational and logical clauses, projections, RAW, GROUP, COUNT DISTINCT, TOP K, QUANTILE, tumbling time
 * windows); anything else is an error naming the query.
 */
public final class BqlForms {
    @Command(name = "BqlForms", sortOptions = false,
             description = {"Writes the BQL form of every JSON query in IN (one per line) to OUT.", ""})
    static final class Options {
        @Parameters(index = "0", paramLabel = "IN", description = "JSON queries, one per line")
        String in;
        @Parameters(index = "1", paramLabel = "OUT", description = "where to write the BQL queries")
        String out;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
        boolean help;
    }

    private BqlForms() {
    }

    public static void main(String[] args) throws IOException {
        Options o = new Options();
        int early = Cli.parse(o, args, System.out, System.err);
        if (early != Cli.RUN) {
            System.exit(early);
        }
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(o.in), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                out.add(bql(JsonParser.parseString(line).getAsJsonObject()));
            }
        }
        Files.writeString(Path.of(o.out), String.join("\n", out) + "\n", StandardCharsets.UTF_8);
    }

    /** The BQL form of one JSON query. */
    static String bql(JsonObject q) {
        JsonObject a = q.getAsJsonObject("aggregation");
        String type = a.get("type").getAsString();
        StringBuilder b = new StringBuilder("SELECT ");
        String groupBy = null;
        switch (type) {
            case "RAW" -> b.append(projection(q));
            case "GROUP" -> {
                List<String> items = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                JsonObject fields = a.getAsJsonObject("fields"); // none: one group over every record
                if (fields != null) {
                    for (Map.Entry<String, JsonElement> f : fields.entrySet()) {
                        items.add(path(f.getKey()) + " AS " + f.getValue().getAsString());
                        keys.add(path(f.getKey()));
                    }
                }
                for (JsonElement op : a.getAsJsonObject("attributes").getAsJsonArray("operations")) {
                    JsonObject o = op.getAsJsonObject();
                    String kind = o.get("type").getAsString();
                    items.add(kind.equals("COUNT") ? "COUNT(*)" : kind + "(" + path(o.get("field").getAsString()) + ")");
                }
                b.append(String.join(", ", items));
                groupBy = keys.isEmpty() ? null : String.join(", ", keys);
            }
            case "COUNT DISTINCT" -> b.append("COUNT(DISTINCT ").append(path(onlyField(a))).append(")");
            case "TOP K" -> b.append("TOP(").append(a.get("size").getAsInt()).append(", ").append(path(onlyField(a)))
                             .append(")");
            case "DISTRIBUTION" -> {
                JsonObject attributes = a.getAsJsonObject("attributes");
                if (!attributes.get("type").getAsString().equals("QUANTILE") || !attributes.has("points")) {
                    throw new IllegalArgumentException("a distribution other than QUANTILE with points: " + q);
                }
                List<String> points = new ArrayList<>();
                attributes.getAsJsonArray("points").forEach(p -> points.add(p.getAsString()));
                b.append("QUANTILE(").append(path(onlyField(a))).append(", MANUAL, ").append(String.join(", ", points))
                 .append(")");
            }
            default -> throw new IllegalArgumentException("an aggregation BqlForms does not write: " + q);
        }
        b.append(" FROM STREAM(").append(q.get("duration").getAsLong()).append(", TIME)");
        JsonArray filters = q.getAsJsonArray("filters");
        if (filters != null && !filters.isEmpty()) {
            List<String> clauses = new ArrayList<>();
            filters.forEach(c -> clauses.add(clause(c.getAsJsonObject())));
            b.append(" WHERE ").append(String.join(" AND ", clauses));
        }
        if (groupBy != null) {
            b.append(" GROUP BY ").append(groupBy);
        }
        if (q.has("window")) {
            b.append(" WINDOWING ").append(window(q.getAsJsonObject("window")));
        }
        if (type.equals("RAW")) {
            b.append(" LIMIT ").append(a.get("size").getAsInt());
        }
        return b.toString();
    }

    private static String projection(JsonObject q) {
        if (!q.has("projection")) {
            return "*";
        }
        List<String> items = new ArrayList<>();
        for (Map.Entry<String, JsonElement> f : q.getAsJsonObject("projection").getAsJsonObject("fields").entrySet()) {
            items.add(path(f.getKey()) + " AS " + f.getValue().getAsString());
        }
        return String.join(", ", items);
    }

    private static String onlyField(JsonObject a) {
        return a.getAsJsonObject("fields").keySet().iterator().next();
    }

    private static String window(JsonObject w) {
        JsonObject emit = w.getAsJsonObject("emit");
        JsonObject include = w.getAsJsonObject("include");
        if (!emit.get("type").getAsString().equals("TIME") || include == null
            || !include.get("type").getAsString().equals("TIME")) {
            throw new IllegalArgumentException("a window other than tumbling by time: " + w);
        }
        return "TUMBLING(" + emit.get("every").getAsLong() + ", TIME)";
    }

    private static String clause(JsonObject c) {
        String op = c.get("operation").getAsString();
        switch (op) {
            case "AND", "OR" -> {
                List<String> parts = new ArrayList<>();
                c.getAsJsonArray("clauses").forEach(x -> parts.add(clause(x.getAsJsonObject())));
                return "(" + String.join(" " + op + " ", parts) + ")";
            }
            case "NOT" -> {
                return "NOT (" + clause(c.getAsJsonArray("clauses").get(0).getAsJsonObject()) + ")";
            }
            default -> {
                return relational(c, op);
            }
        }
    }

    private static String relational(JsonObject c, String op) {
        String field = c.get("field").getAsString();
        String f = path(field);
        List<String> values = new ArrayList<>();
        c.getAsJsonArray("values").forEach(v -> values.add(v.getAsString()));
        List<String> literals = values.stream().map(v -> literal(field, v)).toList();
        return switch (op) {
            case "==" -> values.size() == 1 ? f + " = " + literals.get(0) : f + " IN (" + String.join(", ", literals) + ")";
            case "!=" -> values.size() == 1 ? f + " != " + literals.get(0)
                                            : f + " NOT IN (" + String.join(", ", literals) + ")";
            case "<", "<=", ">", ">=" -> any(values.size(), i -> f + " " + op + " " + literals.get(i));
            case "RLIKE" -> values.size() == 1 ? f + " RLIKE " + quoted(values.get(0))
                                               : f + " RLIKE ANY (" + String.join(", ",
                                                       values.stream().map(BqlForms::quoted).toList()) + ")";
            case "CONTAINSKEY" -> any(values.size(), i -> "CONTAINSKEY(" + f + ", " + quoted(values.get(i)) + ")");
            case "CONTAINSVALUE" -> any(values.size(), i -> "CONTAINSVALUE(" + f + ", " + quoted(values.get(i)) + ")");
            case "SIZEIS" -> any(values.size(), i -> "SIZEIS(" + f + ", " + values.get(i) + ")");
            default -> throw new IllegalArgumentException("an operation BqlForms does not write: " + c);
        };
    }

    private static String any(int n, IntFunction<String> one) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add(one.apply(i));
        }
        return n == 1 ? parts.get(0) : "(" + String.join(" OR ", parts) + ")";
    }

    /** A path as BQL names it: list indexes in brackets. */
    private static String path(String field) {
        String[] segments = field.split("\\.");
        StringBuilder b = new StringBuilder(segments[0]);
        for (int i = 1; i < segments.length; i++) {
            b.append(segments[i].matches("\\d+") ? "[" + segments[i] + "]" : "." + segments[i]);
        }
        return b.toString();
    }

    /** Numbers for the numeric fields of the seed-shaped records, quoted text for the others. */
    private static String literal(String field, String value) {
        boolean numeric = field.startsWith("l_") || field.equals("timestamp");
        return numeric && value.matches("-?\\d+(\\.\\d+)?") ? value : quoted(value);
    }

    private static String quoted(String text) {
        if (text.indexOf('\'') >= 0) {
            throw new IllegalArgumentException("a quote in a literal: " + text);
        }
        return "'" + text + "'";
    }
}
