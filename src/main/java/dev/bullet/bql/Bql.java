package dev.bullet.bql;

import com.google.gson.JsonObject;
import dev.bullet.common.BulletError;
import dev.bullet.common.Limits;

import java.util.List;

/**
 * BQL, the SQL dialect of bullet-bql 1.3 that the original Bullet's users write, translated into this project's JSON
 * query (SPEC §6) so that one parser validates every query. Where a query enters (REST, the offline runner, the
 * topology) {@code QueryParser} recognises BQL with {@link #looksLikeBql} and translates it here.
 */
public final class Bql {
    private Bql() {
    }

    /** The JSON query a BQL statement became, or every problem found (syntax errors with line and column). */
    public record Translation(JsonObject query, List<BulletError> errors) {
        public boolean isValid() {
            return query != null;
        }
    }

    /** Whether a query text is BQL rather than JSON: its first non-blank character is a letter. */
    public static boolean looksLikeBql(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c) && c != '\uFEFF') {
                return Character.isLetter(c);
            }
        }
        return false;
    }

    /** Translates with the default bound on nesting ({@code bullet.query.max.depth}). */
    public static Translation translate(String bql) {
        return translate(bql, Limits.DEFAULTS.queryDepth());
    }

    /** Translates a statement whose expressions may nest at most {@code maxDepth} levels (else an error). */
    public static Translation translate(String bql, int maxDepth) {
        if (bql == null || bql.isBlank()) {
            return new Translation(null, List.of(BulletError.of("The BQL query is empty",
                    "Write a query such as SELECT * FROM STREAM(30000, TIME) LIMIT 10")));
        }
        BqlAst.Query parsed;
        try {
            parsed = BqlParser.parse(bql, maxDepth);
        } catch (BqlSyntaxException e) {
            return new Translation(null, List.of(BulletError.of(
                    "BQL syntax error at line " + e.line + ", column " + e.column + ": " + e.getMessage(), e.resolution)));
        }
        BqlTranslator.Translation t = BqlTranslator.translate(parsed);
        return new Translation(t.query(), t.errors());
    }
}
