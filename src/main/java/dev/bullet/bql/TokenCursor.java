package dev.bullet.bql;

import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlLexer.Kind;
import dev.bullet.bql.BqlLexer.Token;

import java.util.List;
import java.util.Set;

/**
 * The parsers' position in the token list, with the primitives they read it by: look ahead, accept or expect a word
 * or a symbol, read a whole number or a name, and build the syntax error for the current token.
 */
final class TokenCursor {
    /** Words that cannot be field names without double quotes (bullet-bql's reserved words). */
    static final Set<String> RESERVED = Set.of(
            "AND", "ANY", "AS", "BETWEEN", "BY", "CAST", "DISTINCT", "FROM", "GROUP", "HAVING", "IN", "IS", "LIKE", "NOT",
            "NULL", "OR", "ORDER", "SELECT", "WHERE", "LATERAL", "VIEW", "OUTER", "TRUE", "FALSE", "XOR", "EXPLODE",
            "RLIKE", "SIZEIS", "FILTER", "IF", "ABS", "TRIM", "LOWER", "UPPER", "SUBSTRING", "SUBSTR", "UNIXTIMESTAMP",
            "HASH", "INTEGER", "LONG", "FLOAT", "DOUBLE", "BOOLEAN", "STRING", "LIST", "MAP", "SIZEOF", "CONTAINSKEY",
            "CONTAINSVALUE");

    private final List<Token> tokens;
    private int next;

    /** @param tokens the tokens of one statement, ending with an {@link Kind#END} token */
    TokenCursor(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** The current token, not consumed. */
    Token peek() {
        return tokens.get(next);
    }

    /** The token {@code ahead} after the current one, or the END token past the end. */
    Token peek(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    /** Consumes and returns the current token; END is never consumed. */
    Token advance() {
        Token t = tokens.get(next);
        if (t.kind() != Kind.END) {
            next++;
        }
        return t;
    }

    static Pos pos(Token t) {
        return new Pos(t.line(), t.column());
    }

    boolean acceptWord(String word) {
        if (peek().is(word)) {
            next++;
            return true;
        }
        return false;
    }

    boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    Token expectWord(String word) {
        if (!peek().is(word)) {
            throw expected(word);
        }
        return advance();
    }

    Token expectSymbol(String symbol) {
        if (!peek().isSymbol(symbol)) {
            throw expected("'" + symbol + "'");
        }
        return advance();
    }

    /** The error "expected ..., found ..." at the current token, to throw. */
    BqlSyntaxException expected(String... what) {
        Token t = peek();
        String list = what.length == 1 ? what[0]
                : String.join(", ", List.of(what).subList(0, what.length - 1)) + " or " + what[what.length - 1];
        return new BqlSyntaxException(t.line(), t.column(), "expected " + list + ", found " + t.describe(),
                                      (what.length == 1 ? "Write " + what[0] : "Write one of " + list)
                                      + " here (bullet-bql 1.3's grammar; the README's BQL section shows each form)");
    }

    /** Consumes a whole number, {@code what} naming it in the error when there is none. */
    long wholeNumber(String what) {
        Token t = peek();
        if (t.kind() != Kind.INTEGER) {
            throw expected(what + " (a whole number)");
        }
        advance();
        try {
            return Long.parseLong(t.text());
        } catch (NumberFormatException e) {
            throw new BqlSyntaxException(t.line(), t.column(), what + " " + t.text() + " is too large", "Give a smaller number");
        }
    }

    /** Whether {@code t} can be a name (an alias) here: not reserved, nor a clause keyword. */
    boolean isIdentifier(Token t) {
        return t.kind() == Kind.QUOTED_NAME || t.kind() == Kind.WORD && !RESERVED.contains(t.upper())
               && !Set.of("FROM", "LIMIT", "WINDOWING").contains(t.upper());
    }

    /** Consumes a name: a quoted name or a word that is not reserved. */
    String identifier(String what) {
        Token t = peek();
        if (t.kind() == Kind.QUOTED_NAME || t.kind() == Kind.WORD && !RESERVED.contains(t.upper())) {
            advance();
            return t.text();
        }
        throw expected(what);
    }

    /** The error that a construct is not supported, at the current token, to throw. */
    BqlSyntaxException unsupported(String what, String resolution) {
        Token t = peek();
        return new BqlSyntaxException(t.line(), t.column(), what + " is not supported", resolution);
    }
}
