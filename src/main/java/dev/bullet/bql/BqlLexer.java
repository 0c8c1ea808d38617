package dev.bullet.bql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits BQL text into tokens, each with its 1-based line and column. Keywords are not told apart from names here:
 * an unquoted word is a {@link Kind#WORD} whose {@link Token#upper()} the parser compares, so keywords are
 * case-insensitive and names keep their case, as in bullet-bql.
 */
final class BqlLexer {
    enum Kind { WORD, QUOTED_NAME, STRING, INTEGER, LONG, DOUBLE, FLOAT, SYMBOL, END }

    /** One token: {@code text} is the value (unquoted for strings and quoted names). */
    record Token(Kind kind, String text, int line, int column) {
        String upper() {
            return text.toUpperCase(Locale.ROOT);
        }

        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isSymbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        /** How the token reads in an error message. */
        String describe() {
            return switch (kind) {
                case END -> "the end of the query";
                case STRING -> "the string '" + text + "'";
                case QUOTED_NAME -> "the name \"" + text + "\"";
                default -> "'" + text + "'";
            };
        }
    }

    private static final String[] SYMBOLS = {"==", "!=", "<>", "<=", ">=", "||", "=", "<", ">", "+", "-", "*", "/", "%",
                                             "(", ")", "[", "]", ",", ".", ":", ";"};

    private final String text;
    private int pos;
    private int line = 1;
    private int lineStart;

    private BqlLexer(String text) {
        this.text = text;
    }

    /** The tokens of the text, ending with one {@link Kind#END}. */
    static List<Token> tokenize(String text) {
        return new BqlLexer(text).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipSpace();
            if (pos >= text.length()) {
                tokens.add(new Token(Kind.END, "", line, column()));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private int column() {
        return pos - lineStart + 1;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                line++;
                lineStart = pos + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private Token next() {
        int startLine = line;
        int startColumn = column();
        char c = text.charAt(pos);
        if (Character.isLetter(c) || c == '_') {
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                pos++;
            }
            return new Token(Kind.WORD, text.substring(start, pos), startLine, startColumn);
        }
        if (Character.isDigit(c)) {
            return number(startLine, startColumn);
        }
        if (c == '\'' || c == '"') {
            String value = quoted(c, startLine, startColumn);
            return new Token(c == '\'' ? Kind.STRING : Kind.QUOTED_NAME, value, startLine, startColumn);
        }
        for (String symbol : SYMBOLS) {
            if (text.startsWith(symbol, pos)) {
                pos += symbol.length();
                return new Token(Kind.SYMBOL, symbol, startLine, startColumn);
            }
        }
        throw new BqlSyntaxException(startLine, startColumn, "unexpected character '" + c + "'",
                                     "Remove it; strings are in single quotes, names with special characters in double quotes");
    }

    private Token number(int startLine, int startColumn) {
        int start = pos;
        digits();
        boolean decimal = false;
        if (pos < text.length() && text.charAt(pos) == '.' && !(pos + 1 < text.length() && Character.isLetter(text.charAt(pos + 1))
                                                                && Character.toUpperCase(text.charAt(pos + 1)) != 'E')) {
            decimal = true;
            pos++;
            digits();
        }
        if (pos < text.length() && Character.toUpperCase(text.charAt(pos)) == 'E') {
            int mark = pos;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                digits();
                decimal = true;
            } else {
                pos = mark;
            }
        }
        String value = text.substring(start, pos);
        Kind kind = decimal ? Kind.DOUBLE : Kind.INTEGER;
        if (pos < text.length()) {
            char suffix = Character.toUpperCase(text.charAt(pos));
            if (suffix == 'L' && !decimal) {
                pos++;
                kind = Kind.LONG;
            } else if (suffix == 'F' && decimal) {
                pos++;
                kind = Kind.FLOAT;
            }
        }
        if (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            throw new BqlSyntaxException(startLine, startColumn, "'" + value + text.charAt(pos) + "...' is neither a number nor a name",
                                         "Put a name that starts with a digit in double quotes, e.g. \"1st\"");
        }
        return new Token(kind, value, startLine, startColumn);
    }

    private void digits() {
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
    }

    /** A quoted string or name; a doubled quote stands for one. */
    private String quoted(char quote, int startLine, int startColumn) {
        StringBuilder value = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == quote) {
                if (pos + 1 < text.length() && text.charAt(pos + 1) == quote) {
                    value.append(quote);
                    pos += 2;
                    continue;
                }
                pos++;
                return value.toString();
            }
            if (c == '\n') {
                line++;
                lineStart = pos + 1;
            }
            value.append(c);
            pos++;
        }
        throw new BqlSyntaxException(startLine, startColumn, (quote == '\'' ? "string" : "quoted name") + " is not closed",
                                     "End it with " + quote + " (write " + quote + quote + " for a " + quote + " inside it)");
    }
}
