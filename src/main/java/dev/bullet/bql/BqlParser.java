package dev.bullet.bql;

import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlLexer.Kind;
import dev.bullet.bql.BqlLexer.Token;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser for bullet-bql 1.3's grammar: one statement into a {@link BqlAst.Query}. Operator
 * precedence follows bullet-bql's: a prefix {@code NOT} or {@code SIZEOF} without parentheses binds to the next
 * operand only, then {@code IS NULL}, {@code * / %}, {@code + -}, comparisons, {@code = !=}, {@code RLIKE}, {@code IN},
 * {@code BETWEEN}, {@code AND}, {@code XOR}, {@code OR} (all left-associative).
 *
 * <p>Constructs that the grammar has but this project's model cannot run (LATERAL VIEW, subqueries, CAST, ...) are
 * parsed where cheap and left as {@link BqlAst.Unsupported} for the translator to report with a resolution.
 */
final class BqlParser {
    /** Words that cannot be field names without double quotes (bullet-bql's reserved words). */
    private static final Set<String> RESERVED = Set.of(
            "AND", "ANY", "AS", "BETWEEN", "BY", "CAST", "DISTINCT", "FROM", "GROUP", "HAVING", "IN", "IS", "LIKE", "NOT",
            "NULL", "OR", "ORDER", "SELECT", "WHERE", "LATERAL", "VIEW", "OUTER", "TRUE", "FALSE", "XOR", "EXPLODE",
            "RLIKE", "SIZEIS", "FILTER", "IF", "ABS", "TRIM", "LOWER", "UPPER", "SUBSTRING", "SUBSTR", "UNIXTIMESTAMP",
            "HASH", "INTEGER", "LONG", "FLOAT", "DOUBLE", "BOOLEAN", "STRING", "LIST", "MAP", "SIZEOF", "CONTAINSKEY",
            "CONTAINSVALUE");
    private static final Set<String> ONE_ARGUMENT_FUNCTIONS = Set.of("ABS", "TRIM", "LOWER", "UPPER", "HASH");
    private static final int MUL = 0;
    private static final int ADD = 1;
    private static final int COMPARE = 2;
    private static final int EQUAL = 3;
    private static final int RLIKE = 4;
    private static final int IN = 5;
    private static final int BETWEEN = 6;
    private static final int AND = 7;
    private static final int XOR = 8;
    private static final int OR = 9;

    private final List<Token> tokens;
    private int next;

    private BqlParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** Parses one statement. @throws BqlSyntaxException at the first syntax error */
    static BqlAst.Query parse(String text) {
        return new BqlParser(BqlLexer.tokenize(text)).statement();
    }

    // ------------------------------------------------------------------------------------------ tokens

    private Token peek() {
        return tokens.get(next);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    private Token advance() {
        Token t = tokens.get(next);
        if (t.kind() != Kind.END) {
            next++;
        }
        return t;
    }

    private static Pos pos(Token t) {
        return new Pos(t.line(), t.column());
    }

    private boolean acceptWord(String word) {
        if (peek().is(word)) {
            next++;
            return true;
        }
        return false;
    }

    private boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    private Token expectWord(String word) {
        if (!peek().is(word)) {
            throw expected(word);
        }
        return advance();
    }

    private Token expectSymbol(String symbol) {
        if (!peek().isSymbol(symbol)) {
            throw expected("'" + symbol + "'");
        }
        return advance();
    }

    private BqlSyntaxException expected(String... what) {
        Token t = peek();
        String list = what.length == 1 ? what[0]
                : String.join(", ", List.of(what).subList(0, what.length - 1)) + " or " + what[what.length - 1];
        return new BqlSyntaxException(t.line(), t.column(), "expected " + list + ", found " + t.describe(),
                                      (what.length == 1 ? "Write " + what[0] : "Write one of " + list)
                                      + " here (the BQL grammar is in the README)");
    }

    private long wholeNumber(String what) {
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

    // --------------------------------------------------------------------------------------- statement

    private BqlAst.Query statement() {
        expectWord("SELECT");
        boolean distinct = acceptWord("DISTINCT");
        List<BqlAst.SelectItem> select = new ArrayList<>();
        do {
            select.add(selectItem());
        } while (acceptSymbol(","));
        expectWord("FROM");
        Long duration = stream();
        if (peek().is("LATERAL")) {
            throw unsupported("LATERAL VIEW", "Select the list or map field itself; this project has no EXPLODE");
        }
        Expr where = null;
        List<Expr> groupBy = List.of();
        Expr having = null;
        List<BqlAst.SortItem> orderBy = List.of();
        BqlAst.Window window = null;
        Long limit = null;
        Pos limitPos = null;
        if (acceptWord("WHERE")) {
            where = expression();
        }
        if (peek().is("GROUP")) {
            advance();
            expectWord("BY");
            groupBy = expressions();
        }
        if (acceptWord("HAVING")) {
            having = expression();
        }
        if (peek().is("ORDER")) {
            advance();
            expectWord("BY");
            orderBy = new ArrayList<>();
            do {
                Expr e = expression();
                boolean descending = false;
                if (acceptWord("DESC")) {
                    descending = true;
                } else {
                    acceptWord("ASC");
                }
                orderBy.add(new BqlAst.SortItem(e, descending));
            } while (acceptSymbol(","));
        }
        if (peek().is("WINDOWING")) {
            advance();
            window = window();
        }
        if (peek().is("LIMIT")) {
            limitPos = pos(advance());
            limit = wholeNumber("the LIMIT");
        }
        acceptSymbol(";");
        if (peek().kind() != Kind.END) {
            List<String> clauses = new ArrayList<>();
            if (where == null && groupBy.isEmpty() && having == null && orderBy.isEmpty() && window == null && limit == null) {
                clauses.add("WHERE");
            }
            if (groupBy.isEmpty() && having == null && orderBy.isEmpty() && window == null && limit == null) {
                clauses.add("GROUP BY");
            }
            if (having == null && orderBy.isEmpty() && window == null && limit == null) {
                clauses.add("HAVING");
            }
            if (orderBy.isEmpty() && window == null && limit == null) {
                clauses.add("ORDER BY");
            }
            if (window == null && limit == null) {
                clauses.add("WINDOWING");
            }
            if (limit == null) {
                clauses.add("LIMIT");
            }
            clauses.add("the end of the query");
            throw expected(clauses.toArray(String[]::new));
        }
        return new BqlAst.Query(distinct, select, duration, where, groupBy, having, orderBy, window, limit, limitPos);
    }

    private BqlAst.SelectItem selectItem() {
        Token start = peek();
        if (acceptSymbol("*")) {
            return new BqlAst.SelectItem(null, null, pos(start));
        }
        if (start.is("OUTER") || start.is("EXPLODE")) {
            throw unsupported("EXPLODE", "Select the list or map field itself; this project has no table functions");
        }
        Expr e = expression();
        String alias = null;
        if (acceptWord("AS")) {
            alias = identifier("a name after AS");
        } else if (isIdentifier(peek())) {
            alias = identifier("a name");
        }
        return new BqlAst.SelectItem(e, alias, pos(start));
    }

    /** {@code STREAM()}, {@code STREAM(n, TIME)}, {@code STREAM(MAX, TIME)}: the duration, or null. */
    private Long stream() {
        if (peek().isSymbol("(")) {
            throw unsupported("a subquery (FROM (SELECT ...))", "Run the inner query on its own: SELECT ... FROM STREAM(...)");
        }
        expectWord("STREAM");
        expectSymbol("(");
        Long duration = null;
        if (!acceptSymbol(")")) {
            if (acceptWord("MAX")) {
                duration = Long.MAX_VALUE;
            } else if (peek().kind() == Kind.INTEGER) {
                duration = wholeNumber("the duration");
            } else {
                throw expected("')'", "a duration in milliseconds", "MAX");
            }
            expectSymbol(",");
            expectWord("TIME");
            expectSymbol(")");
        }
        return duration;
    }

    private BqlAst.Window window() {
        Token start = peek();
        if (acceptWord("EVERY")) {
            expectSymbol("(");
            long every = wholeNumber("the emit interval");
            expectSymbol(",");
            String emit = unit();
            expectSymbol(",");
            String includeUnit;
            Long first = null;
            if (acceptWord("ALL")) {
                includeUnit = "ALL";
            } else if (acceptWord("FIRST")) {
                expectSymbol(",");
                first = wholeNumber("the FIRST size");
                expectSymbol(",");
                includeUnit = unit();
            } else {
                throw expected("ALL", "FIRST");
            }
            expectSymbol(")");
            return new BqlAst.Window(every, emit, includeUnit, first, pos(start));
        }
        if (acceptWord("TUMBLING")) {
            expectSymbol("(");
            long every = wholeNumber("the window size");
            expectSymbol(",");
            String emit = unit();
            expectSymbol(")");
            return new BqlAst.Window(every, emit, null, null, pos(start));
        }
        throw expected("EVERY", "TUMBLING");
    }

    private String unit() {
        if (acceptWord("TIME")) {
            return "TIME";
        }
        if (acceptWord("RECORD")) {
            return "RECORD";
        }
        throw expected("TIME", "RECORD");
    }

    private boolean isIdentifier(Token t) {
        return t.kind() == Kind.QUOTED_NAME || t.kind() == Kind.WORD && !RESERVED.contains(t.upper())
               && !Set.of("FROM", "LIMIT", "WINDOWING").contains(t.upper());
    }

    private String identifier(String what) {
        Token t = peek();
        if (t.kind() == Kind.QUOTED_NAME || t.kind() == Kind.WORD && !RESERVED.contains(t.upper())) {
            advance();
            return t.text();
        }
        throw expected(what);
    }

    private BqlSyntaxException unsupported(String what, String resolution) {
        Token t = peek();
        return new BqlSyntaxException(t.line(), t.column(), what + " is not supported", resolution);
    }

    // -------------------------------------------------------------------------------------- expressions

    private List<Expr> expressions() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expression());
        } while (acceptSymbol(","));
        return list;
    }

    Expr expression() {
        return level(OR);
    }

    private Expr level(int level) {
        if (level < MUL) {
            return postfix();
        }
        Expr left = level(level - 1);
        while (true) {
            Token t = peek();
            Pos p = left.pos();
            switch (level) {
                case MUL, ADD -> {
                    Set<String> ops = level == MUL ? Set.of("*", "/", "%") : Set.of("+", "-");
                    if (t.kind() != Kind.SYMBOL || !ops.contains(t.text())) {
                        return left;
                    }
                    advance();
                    left = new BqlAst.Binary(t.text(), null, false, left, level(level - 1), p);
                }
                case COMPARE, EQUAL -> {
                    Set<String> ops = level == COMPARE ? Set.of("<", "<=", ">", ">=") : Set.of("=", "==", "!=", "<>");
                    if (t.kind() != Kind.SYMBOL || !ops.contains(t.text())) {
                        return left;
                    }
                    advance();
                    String op = switch (t.text()) {
                        case "==" -> "=";
                        case "<>" -> "!=";
                        default -> t.text();
                    };
                    String modifier = peek().is("ANY") || peek().is("ALL") ? advance().upper() : null;
                    left = new BqlAst.Binary(op, modifier, false, left, level(level - 1), p);
                }
                case RLIKE, IN, BETWEEN -> {
                    String word = level == RLIKE ? "RLIKE" : level == IN ? "IN" : "BETWEEN";
                    boolean not = t.is("NOT") && peek(1).is(word);
                    if (!not && !t.is(word)) {
                        return left;
                    }
                    if (not) {
                        advance();
                    }
                    advance();
                    left = switch (level) {
                        case RLIKE -> {
                            String modifier = acceptWord("ANY") ? "ANY" : null;
                            yield new BqlAst.Binary("RLIKE", modifier, not, left, level(level - 1), p);
                        }
                        case IN -> new BqlAst.Binary("IN", null, not, left, inList(), p);
                        default -> {
                            expectSymbol("(");
                            expression();
                            expectSymbol(",");
                            expression();
                            expectSymbol(")");
                            yield new BqlAst.Unsupported("BETWEEN", "Write x >= low AND x <= high", p);
                        }
                    };
                }
                default -> {
                    String word = level == AND ? "AND" : level == XOR ? "XOR" : "OR";
                    if (!t.is(word)) {
                        return left;
                    }
                    advance();
                    left = new BqlAst.Binary(word, null, false, left, level(level - 1), p);
                }
            }
        }
    }

    private Expr inList() {
        Token start = peek();
        if (acceptSymbol("(")) {
            List<Expr> items = expressions();
            expectSymbol(")");
            return new BqlAst.ListExpr(items, true, pos(start));
        }
        return level(IN - 1);
    }

    /** A primary expression followed by any {@code IS [NOT] NULL} and {@code : type}. */
    private Expr postfix() {
        Expr e = primary();
        while (true) {
            Token t = peek();
            if (t.is("IS")) {
                advance();
                boolean not = acceptWord("NOT");
                expectWord("NULL");
                e = new BqlAst.IsNull(e, not, pos(t));
            } else if (t.isSymbol(":")) {
                advance();
                while (isIdentifier(peek()) || RESERVED.contains(peek().upper()) || peek().isSymbol("[") || peek().isSymbol("]")) {
                    advance();
                }
                e = new BqlAst.Unsupported("a type annotation (field : TYPE)",
                                           "Remove ': TYPE': values are compared after casting to the field's type", pos(t));
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = peek();
        Pos p = pos(t);
        switch (t.kind()) {
            case STRING:
                advance();
                return new BqlAst.Literal(t.text(), p);
            case INTEGER:
            case LONG:
            case DOUBLE:
            case FLOAT:
                return number(false);
            case QUOTED_NAME:
                return field();
            case SYMBOL:
                if (t.isSymbol("(")) {
                    advance();
                    Expr inner = expression();
                    expectSymbol(")");
                    return new BqlAst.Parens(inner, p);
                }
                if (t.isSymbol("[")) {
                    advance();
                    List<Expr> items = peek().isSymbol("]") ? List.of() : expressions();
                    expectSymbol("]");
                    return new BqlAst.ListExpr(items, false, p);
                }
                if ((t.isSymbol("-") || t.isSymbol("+")) && isNumber(peek(1))) {
                    advance();
                    return number(t.isSymbol("-"));
                }
                throw expected("an expression");
            case WORD:
                return word(t, p);
            default:
                throw expected("an expression");
        }
    }

    private static boolean isNumber(Token t) {
        return t.kind() == Kind.INTEGER || t.kind() == Kind.LONG || t.kind() == Kind.DOUBLE || t.kind() == Kind.FLOAT;
    }

    private Expr number(boolean negative) {
        Token t = advance();
        String text = (negative ? "-" : "") + t.text();
        Pos p = pos(t);
        try {
            Object value = switch (t.kind()) {
                case INTEGER -> {
                    long l = Long.parseLong(text);
                    yield l == (int) l ? (Object) (int) l : (Object) l;
                }
                case LONG -> Long.parseLong(text);
                case FLOAT -> Float.parseFloat(text);
                default -> Double.parseDouble(text);
            };
            return new BqlAst.Literal(value, p);
        } catch (NumberFormatException e) {
            throw new BqlSyntaxException(p.line(), p.column(), "the number " + text + " is out of range", "Give a smaller number");
        }
    }

    private Expr word(Token t, Pos p) {
        String upper = t.upper();
        boolean call = peek(1).isSymbol("(");
        switch (upper) {
            case "NULL":
                advance();
                return new BqlAst.Literal(null, p);
            case "TRUE":
            case "FALSE":
                advance();
                return new BqlAst.Literal(Boolean.valueOf(upper.equals("TRUE")), p);
            case "NOW":
                advance();
                return new BqlAst.Unsupported("NOW", "Compare with a literal time in milliseconds", p);
            case "NOT":
            case "SIZEOF": {
                advance();
                if (acceptSymbol("(")) {
                    Expr inner = expression();
                    expectSymbol(")");
                    return new BqlAst.Unary(upper, inner, true, p);
                }
                return new BqlAst.Unary(upper, postfix(), false, p);
            }
            case "SIZEIS":
            case "CONTAINSKEY":
            case "CONTAINSVALUE":
            case "FILTER": {
                advance();
                expectSymbol("(");
                Expr left = expression();
                expectSymbol(",");
                Expr right = expression();
                expectSymbol(")");
                return new BqlAst.Call(upper, List.of(left, right), p);
            }
            case "IF":
            case "BETWEEN":
            case "SUBSTRING":
            case "SUBSTR":
            case "UNIXTIMESTAMP": {
                advance();
                expectSymbol("(");
                List<Expr> args = peek().isSymbol(")") ? List.of() : expressions();
                expectSymbol(")");
                return new BqlAst.Call(upper, args, p);
            }
            case "CAST": {
                advance();
                expectSymbol("(");
                expression();
                expectWord("AS");
                advance();
                expectSymbol(")");
                return new BqlAst.Unsupported("CAST", "Compare the field with a literal directly: values are cast to the field's type", p);
            }
            default:
                break;
        }
        if (ONE_ARGUMENT_FUNCTIONS.contains(upper) && call) {
            advance();
            expectSymbol("(");
            Expr inner = expression();
            expectSymbol(")");
            return new BqlAst.Unary(upper, inner, true, p);
        }
        if (call && Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "QUANTILE", "FREQ", "CUMFREQ", "TOP").contains(upper)) {
            advance();
            advance();
            return aggregate(upper, p);
        }
        if (RESERVED.contains(upper)) {
            throw expected("an expression");
        }
        return field();
    }

    private Expr aggregate(String op, Pos p) {
        switch (op) {
            case "COUNT": {
                if (acceptSymbol("*")) {
                    expectSymbol(")");
                    return new BqlAst.Aggregate("COUNT", null, p);
                }
                if (!acceptWord("DISTINCT")) {
                    throw expected("'*'", "DISTINCT");
                }
                List<Expr> operands = expressions();
                expectSymbol(")");
                return new BqlAst.CountDistinct(operands, p);
            }
            case "QUANTILE":
            case "FREQ":
            case "CUMFREQ": {
                Expr operand = expression();
                expectSymbol(",");
                String mode;
                int min;
                int max;
                if (acceptWord("LINEAR")) {
                    mode = "LINEAR";
                    min = 1;
                    max = 1;
                } else if (acceptWord("REGION")) {
                    mode = "REGION";
                    min = 3;
                    max = 3;
                } else if (acceptWord("MANUAL")) {
                    mode = "MANUAL";
                    min = 1;
                    max = Integer.MAX_VALUE;
                } else {
                    throw expected("LINEAR", "REGION", "MANUAL");
                }
                List<Double> numbers = new ArrayList<>();
                while (numbers.size() < max && acceptSymbol(",")) {
                    boolean negative = acceptSymbol("-");
                    if (!negative) {
                        acceptSymbol("+");
                    }
                    if (!isNumber(peek())) {
                        throw expected("a number");
                    }
                    if (mode.equals("LINEAR") && peek().kind() != Kind.INTEGER) {
                        throw expected("the number of points (a whole number)");
                    }
                    numbers.add(((Number) ((BqlAst.Literal) number(negative)).value()).doubleValue());
                }
                if (numbers.size() < min) {
                    throw expected("','");
                }
                expectSymbol(")");
                return new BqlAst.Distribution(op, operand, mode, numbers, p);
            }
            case "TOP": {
                long size = wholeNumber("the TOP size");
                expectSymbol(",");
                Long threshold = null;
                if (peek().kind() == Kind.INTEGER && peek(1).isSymbol(",")) {
                    threshold = wholeNumber("the TOP threshold");
                    expectSymbol(",");
                }
                List<Expr> operands = expressions();
                expectSymbol(")");
                return new BqlAst.TopK(size, threshold, operands, p);
            }
            default: {
                Expr operand = expression();
                expectSymbol(")");
                return new BqlAst.Aggregate(op, operand, p);
            }
        }
    }

    /** {@code a}, {@code "a b"}, then up to two of {@code .key}, {@code [index]}, {@code ['key']}. */
    private Expr field() {
        Token head = advance();
        Pos p = pos(head);
        List<Object> segments = new ArrayList<>();
        segments.add(head.text());
        StringBuilder name = new StringBuilder(head.text());
        while (peek().isSymbol(".") || peek().isSymbol("[")) {
            if (segments.size() == 3) {
                throw new BqlSyntaxException(peek().line(), peek().column(), "fields nest at most two levels deep in BQL",
                                             "Write at most a.b.c, a[0].b or a['k']['j']");
            }
            if (acceptSymbol(".")) {
                Token key = peek();
                if (key.kind() != Kind.WORD && key.kind() != Kind.QUOTED_NAME) {
                    throw expected("a key after '.'");
                }
                advance();
                segments.add(key.text());
                name.append('.').append(key.text());
                continue;
            }
            Token open = advance();
            Token key = peek();
            if (key.kind() == Kind.INTEGER && peek(1).isSymbol("]")) {
                advance();
                segments.add(Integer.valueOf(key.text()));
                name.append('[').append(key.text()).append(']');
            } else if (key.kind() == Kind.STRING && peek(1).isSymbol("]")) {
                advance();
                segments.add(key.text());
                name.append("['").append(key.text()).append("']");
            } else {
                expression();
                expectSymbol("]");
                return new BqlAst.Unsupported("a computed key (field[expression])",
                                              "Give the key as a literal: field['key'] or field[0]", pos(open));
            }
            expectSymbol("]");
        }
        return new BqlAst.Field(List.copyOf(segments), name.toString(), p);
    }
}
