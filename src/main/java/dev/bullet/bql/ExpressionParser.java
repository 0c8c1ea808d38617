package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;
import static dev.bullet.bql.TokenCursor.RESERVED;
import static dev.bullet.bql.TokenCursor.pos;

import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlLexer.Kind;
import dev.bullet.bql.BqlLexer.Token;
import dev.bullet.query.expr.ExprType;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The expressions of bullet-bql 1.3's grammar, by recursive descent with bullet-bql's operator precedence: a prefix
 * {@code NOT} or {@code SIZEOF} without parentheses binds to the next operand only, then {@code IS NULL},
 * {@code * / %}, {@code + -}, comparisons, {@code = !=}, {@code RLIKE}, {@code IN}, {@code BETWEEN}, {@code AND},
 * {@code XOR}, {@code OR} (all left-associative). Also the aggregates (COUNT, SUM, ..., COUNT(DISTINCT ...),
 * QUANTILE/FREQ/CUMFREQ, TOP) and fields ({@code a.b}, {@code a[0]}, {@code a['k']}).
 *
 * <p>Every expression form of the grammar is read: functions, {@code CAST(x AS type)}, {@code [NOT] BETWEEN},
 * computed keys ({@code a[b]}), {@code NOW} (the time of parsing, a LONG, as bullet-bql makes it); a type hint
 * ({@code a : STRING}) is an error naming it. There is no unary minus on expressions in the grammar: {@code -5} is a
 * number.
 *
 * <p>Nesting is bounded by {@code maxDepth} ({@code bullet.query.max.depth}): the parser counts its own recursion
 * (parentheses, function arguments, prefix NOT and SIZEOF) before it descends, and the depth of every node it builds,
 * so that neither it nor the translators that walk the tree can overflow the stack. Chains of AND, XOR and OR are
 * built balanced (they are associative, also under three-valued logic), so a thousand ORed conditions nest ten deep.
 */
final class ExpressionParser {
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

    private final TokenCursor in;
    private final int maxDepth;
    /** The parser's current recursion: expressions and prefix operators it is inside of. */
    private int nesting;
    /** The depth of each composite node built (a leaf is 1). */
    private final Map<Expr, Integer> depths = new IdentityHashMap<>();

    ExpressionParser(TokenCursor in, int maxDepth) {
        this.in = in;
        this.maxDepth = maxDepth;
    }

    /** Enters one level of recursion, or fails when that is deeper than the bound. */
    private void enter() {
        if (++nesting > maxDepth) {
            throw tooDeep();
        }
    }

    private BqlSyntaxException tooDeep() {
        Token t = in.peek();
        return new BqlSyntaxException(t.line(), t.column(), "the query nests deeper than " + maxDepth
                                      + " levels (bullet.query.max.depth)",
                                      "Flatten it: NOT NOT x is x, drop redundant parentheses, split long arithmetic; "
                                      + "or raise bullet.query.max.depth");
    }

    /** Registers a composite node's depth (one more than its deepest child), failing when it is over the bound. */
    private <E extends Expr> E track(E e, Expr... children) {
        int deepest = 0;
        for (Expr child : children) {
            if (child != null) {
                deepest = Math.max(deepest, depths.getOrDefault(child, 1));
            }
        }
        if (deepest + 1 > maxDepth) {
            throw tooDeep();
        }
        depths.put(e, deepest + 1);
        return e;
    }

    private <E extends Expr> E track(E e, List<Expr> children) {
        return track(e, children.toArray(Expr[]::new));
    }

    /**
     * Whether parentheses around an expression stay a node (and so in its name), as bullet-bql's AST builder keeps
     * them: around arithmetic, a comparison or RLIKE, IS NULL and BETWEEN only; {@code (a)}, {@code ((a + 1))},
     * {@code (a AND b)} and {@code (a IN [1])} lose them.
     */
    private static boolean keepsParentheses(Expr inner) {
        if (inner instanceof BqlAst.Binary b) {
            return !Set.of("IN", "AND", "OR", "XOR").contains(b.op());
        }
        return inner instanceof BqlAst.IsNull || inner instanceof BqlAst.Between;
    }

    /** One or more expressions separated by commas. */
    List<Expr> expressionList() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expression());
        } while (in.acceptSymbol(","));
        return list;
    }

    /** One expression, at the loosest precedence (OR). */
    Expr expression() {
        enter();
        try {
            return level(OR);
        } finally {
            nesting--;
        }
    }

    /** The operators of one precedence level (MUL the tightest, OR the loosest) over the operands of the next. */
    private Expr level(int level) {
        if (level < MUL) {
            return postfix();
        }
        if (level >= AND) {
            return chain(level);
        }
        Expr left = level(level - 1);
        while (true) {
            Token t = in.peek();
            Pos p = left.pos();
            Expr extended = switch (level) {
                case MUL, ADD -> arithmetic(level, t, left, p);
                case COMPARE, EQUAL -> comparison(level, t, left, p);
                default -> predicate(level, t, left, p);
            };
            if (extended == null) {
                return left;
            }
            left = extended;
        }
    }

    /** {@code a AND b AND ...} (or XOR, OR) over the operands of the next level, built balanced. */
    private Expr chain(int level) {
        String word = level == AND ? "AND" : level == XOR ? "XOR" : "OR";
        List<Expr> terms = new ArrayList<>();
        terms.add(level(level - 1));
        while (in.peek().is(word)) {
            in.advance();
            terms.add(level(level - 1));
        }
        return balanced(word, terms, 0, terms.size());
    }

    private Expr balanced(String word, List<Expr> terms, int from, int to) {
        if (to - from == 1) {
            return terms.get(from);
        }
        int mid = (from + to) >>> 1;
        Expr left = balanced(word, terms, from, mid);
        Expr right = balanced(word, terms, mid, to);
        return track(new BqlAst.Binary(word, null, false, left, right, left.pos()), left, right);
    }

    /** {@code left * / % right} or {@code left + - right}, or null when {@code t} is not such an operator. */
    private Expr arithmetic(int level, Token t, Expr left, Pos p) {
        Set<String> ops = level == MUL ? Set.of("*", "/", "%") : Set.of("+", "-");
        if (t.kind() != Kind.SYMBOL || !ops.contains(t.text())) {
            return null;
        }
        in.advance();
        Expr right = level(level - 1);
        return track(new BqlAst.Binary(t.text(), null, false, left, right, p), left, right);
    }

    /** A comparison, optionally with ANY or ALL, or null when {@code t} is not a comparison operator. */
    private Expr comparison(int level, Token t, Expr left, Pos p) {
        Set<String> ops = level == COMPARE ? Set.of("<", "<=", ">", ">=") : Set.of("=", "==", "!=", "<>");
        if (t.kind() != Kind.SYMBOL || !ops.contains(t.text())) {
            return null;
        }
        in.advance();
        String op = switch (t.text()) {
            case "==" -> "=";
            case "<>" -> "!=";
            default -> t.text();
        };
        String modifier = in.peek().is("ANY") || in.peek().is("ALL") ? in.advance().upper() : null;
        Expr right = level(level - 1);
        return track(new BqlAst.Binary(op, modifier, false, left, right, p), left, right);
    }

    /** {@code [NOT] RLIKE [ANY]}, {@code [NOT] IN} or {@code [NOT] BETWEEN}, or null when {@code t} starts none. */
    private Expr predicate(int level, Token t, Expr left, Pos p) {
        String word = level == RLIKE ? "RLIKE" : level == IN ? "IN" : "BETWEEN";
        boolean not = t.is("NOT") && in.peek(1).is(word);
        if (!not && !t.is(word)) {
            return null;
        }
        if (not) {
            in.advance();
        }
        in.advance();
        return switch (level) {
            case RLIKE -> {
                String modifier = in.acceptWord("ANY") ? "ANY" : null;
                Expr right = level(level - 1);
                yield track(new BqlAst.Binary("RLIKE", modifier, not, left, right, p), left, right);
            }
            case IN -> {
                Expr right = inList();
                yield track(new BqlAst.Binary("IN", null, not, left, right, p), left, right);
            }
            default -> {
                in.expectSymbol("(");
                Expr lower = expression();
                in.expectSymbol(",");
                Expr upper = expression();
                in.expectSymbol(")");
                yield track(new BqlAst.Between(left, lower, upper, not, p), left, lower, upper);
            }
        };
    }

    private Expr inList() {
        Token start = in.peek();
        if (in.acceptSymbol("(")) {
            List<Expr> items = expressionList();
            in.expectSymbol(")");
            return track(new BqlAst.ListExpr(items, true, pos(start)), items);
        }
        return level(IN - 1);
    }

    /** A primary expression followed by any {@code IS [NOT] NULL} and {@code : type}. */
    private Expr postfix() {
        Expr e = primary();
        while (true) {
            Token t = in.peek();
            if (t.is("IS")) {
                in.advance();
                boolean not = in.acceptWord("NOT");
                in.expectWord("NULL");
                e = track(new BqlAst.IsNull(e, not, pos(t)), e);
            } else if (t.isSymbol(":")) {
                in.advance();
                String type = fieldType();
                if (!(e instanceof BqlAst.Field f) || f.hint() != null) {
                    throw new BqlSyntaxException(t.line(), t.column(), "a type hint (: " + type + ") can follow a field "
                                                 + "only, not " + name(e), "Write field : TYPE, e.g. a : STRING");
                }
                e = track(new BqlAst.Field(f.segments(), f.name(), f.pos(), ExprType.named(hintTypeName(type))), f);
            } else {
                return e;
            }
        }
    }

    /** The type named {@code LIST[MAP[STRING]]} and the like: STRING_MAP_LIST. */
    private static String hintTypeName(String type) {
        String[] parts = type.replace("]", "").split("\\[");
        StringBuilder name = new StringBuilder(parts[parts.length - 1]);
        for (int i = parts.length - 2; i >= 0; i--) {
            name.append('_').append(parts[i]);
        }
        return name.toString();
    }

    /** bullet-bql's field types: a primitive, LIST[p], MAP[p], LIST[MAP[p]] or MAP[MAP[p]]. */
    private String fieldType() {
        if (!in.peek().is("LIST") && !in.peek().is("MAP")) {
            return primitiveType("a type (INTEGER, LONG, FLOAT, DOUBLE, BOOLEAN, STRING, LIST[...] or MAP[...])");
        }
        String outer = in.advance().upper();
        in.expectSymbol("[");
        String inner;
        if (in.acceptWord("MAP")) {
            in.expectSymbol("[");
            inner = "MAP[" + primitiveType("INTEGER, LONG, FLOAT, DOUBLE, BOOLEAN or STRING") + "]";
            in.expectSymbol("]");
        } else {
            inner = primitiveType("INTEGER, LONG, FLOAT, DOUBLE, BOOLEAN, STRING or MAP[...]");
        }
        in.expectSymbol("]");
        return outer + "[" + inner + "]";
    }

    private String primitiveType(String expected) {
        String type = in.peek().upper();
        if (in.peek().kind() != Kind.WORD || !Set.of("INTEGER", "LONG", "FLOAT", "DOUBLE", "BOOLEAN", "STRING").contains(type)) {
            throw in.expected(expected);
        }
        in.advance();
        return type;
    }

    private Expr primary() {
        Token t = in.peek();
        Pos p = pos(t);
        switch (t.kind()) {
            case STRING:
                in.advance();
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
                    in.advance();
                    Expr inner = expression();
                    in.expectSymbol(")");
                    return keepsParentheses(inner) ? track(new BqlAst.Parens(inner, p), inner) : inner;
                }
                if (t.isSymbol("[")) {
                    in.advance();
                    List<Expr> items = in.peek().isSymbol("]") ? List.of() : expressionList();
                    in.expectSymbol("]");
                    return track(new BqlAst.ListExpr(items, false, p), items);
                }
                if ((t.isSymbol("-") || t.isSymbol("+")) && isNumber(in.peek(1))) {
                    in.advance();
                    return number(t.isSymbol("-"));
                }
                throw in.expected("an expression");
            case WORD:
                return word(t, p);
            default:
                throw in.expected("an expression");
        }
    }

    private static boolean isNumber(Token t) {
        return t.kind() == Kind.INTEGER || t.kind() == Kind.LONG || t.kind() == Kind.DOUBLE || t.kind() == Kind.FLOAT;
    }

    /**
     * A number, negated when {@code negative}. As in bullet-bql, a whole number without L is an INTEGER when its
     * digits fit an int before the sign is applied, else a LONG: {@code -2147483648} is a LONG.
     */
    private Expr number(boolean negative) {
        Token t = in.advance();
        String text = (negative ? "-" : "") + t.text();
        Pos p = pos(t);
        try {
            Object value = switch (t.kind()) {
                case INTEGER -> {
                    long l = Long.parseLong(t.text());
                    yield l <= Integer.MAX_VALUE ? (Object) (int) (negative ? -l : l) : (Object) (negative ? -l : l);
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

    /** An expression that starts with a word: a keyword form, a function, an aggregate, or a field. */
    private Expr word(Token t, Pos p) {
        String upper = t.upper();
        boolean call = in.peek(1).isSymbol("(");
        Expr keyword = keyword(upper, p);
        if (keyword != null) {
            return keyword;
        }
        if (ONE_ARGUMENT_FUNCTIONS.contains(upper) && call) {
            in.advance();
            in.expectSymbol("(");
            Expr inner = expression();
            in.expectSymbol(")");
            return track(new BqlAst.Unary(upper, inner, true, p), inner);
        }
        if (call && Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "QUANTILE", "FREQ", "CUMFREQ", "TOP").contains(upper)) {
            in.advance();
            in.advance();
            return aggregate(upper, p);
        }
        if (RESERVED.contains(upper)) {
            throw in.expected("an expression");
        }
        return field();
    }

    /** NULL, TRUE, FALSE, NOW, a prefix NOT or SIZEOF, or a keyword function; null when {@code upper} is none. */
    private Expr keyword(String upper, Pos p) {
        switch (upper) {
            case "NULL":
                in.advance();
                return new BqlAst.Literal(null, p);
            case "TRUE":
            case "FALSE":
                in.advance();
                return new BqlAst.Literal(Boolean.valueOf(upper.equals("TRUE")), p);
            case "NOW":
                in.advance();
                return new BqlAst.Literal(System.currentTimeMillis(), p);
            case "NOT":
            case "SIZEOF": {
                in.advance();
                if (in.acceptSymbol("(")) {
                    Expr inner = expression();
                    in.expectSymbol(")");
                    return track(new BqlAst.Unary(upper, inner, true, p), inner);
                }
                enter();
                try {
                    Expr operand = postfix();
                    return track(new BqlAst.Unary(upper, operand, false, p), operand);
                } finally {
                    nesting--;
                }
            }
            default:
                return keywordFunction(upper, p);
        }
    }

    /** SIZEIS, CONTAINSKEY, CONTAINSVALUE, FILTER, IF, BETWEEN, SUBSTRING, SUBSTR, UNIXTIMESTAMP, CAST; or null. */
    private Expr keywordFunction(String upper, Pos p) {
        switch (upper) {
            case "SIZEIS":
            case "CONTAINSKEY":
            case "CONTAINSVALUE":
            case "FILTER": {
                in.advance();
                in.expectSymbol("(");
                Expr left = expression();
                in.expectSymbol(",");
                Expr right = expression();
                in.expectSymbol(")");
                return track(new BqlAst.Call(upper, List.of(left, right), p), left, right);
            }
            case "IF":
            case "BETWEEN":
            case "SUBSTRING":
            case "SUBSTR":
            case "UNIXTIMESTAMP": {
                in.advance();
                in.expectSymbol("(");
                List<Expr> args = in.peek().isSymbol(")") ? List.of() : expressionList();
                in.expectSymbol(")");
                return track(new BqlAst.Call(upper.equals("SUBSTR") ? "SUBSTRING" : upper, args, p), args);
            }
            case "CAST": {
                in.advance();
                in.expectSymbol("(");
                Expr operand = expression();
                in.expectWord("AS");
                String type = primitiveType("INTEGER, LONG, FLOAT, DOUBLE, BOOLEAN or STRING");
                in.expectSymbol(")");
                return track(new BqlAst.Cast(operand, type, p), operand);
            }
            default:
                return null;
        }
    }

    /** The rest of an aggregate after {@code op(}: COUNT(*), COUNT(DISTINCT ...), a distribution, TOP, or op(x). */
    private Expr aggregate(String op, Pos p) {
        switch (op) {
            case "COUNT": {
                if (in.acceptSymbol("*")) {
                    in.expectSymbol(")");
                    return new BqlAst.Aggregate("COUNT", null, p);
                }
                if (!in.acceptWord("DISTINCT")) {
                    throw in.expected("'*'", "DISTINCT");
                }
                List<Expr> operands = expressionList();
                in.expectSymbol(")");
                return track(new BqlAst.CountDistinct(operands, p), operands);
            }
            case "QUANTILE":
            case "FREQ":
            case "CUMFREQ":
                return distribution(op, p);
            case "TOP": {
                long size = in.wholeNumber("the TOP size");
                in.expectSymbol(",");
                Long threshold = null;
                if (in.peek().kind() == Kind.INTEGER && in.peek(1).isSymbol(",")) {
                    threshold = in.wholeNumber("the TOP threshold");
                    in.expectSymbol(",");
                }
                List<Expr> operands = expressionList();
                in.expectSymbol(")");
                return track(new BqlAst.TopK(size, threshold, operands, p), operands);
            }
            default: {
                Expr operand = expression();
                in.expectSymbol(")");
                return track(new BqlAst.Aggregate(op, operand, p), operand);
            }
        }
    }

    /** {@code QUANTILE|FREQ|CUMFREQ(x, LINEAR, n)}, {@code (x, REGION, start, end, increment)}, {@code (x, MANUAL, ...)}. */
    private Expr distribution(String op, Pos p) {
        Expr operand = expression();
        in.expectSymbol(",");
        String mode;
        int min;
        int max;
        if (in.acceptWord("LINEAR")) {
            mode = "LINEAR";
            min = 1;
            max = 1;
        } else if (in.acceptWord("REGION")) {
            mode = "REGION";
            min = 3;
            max = 3;
        } else if (in.acceptWord("MANUAL")) {
            mode = "MANUAL";
            min = 1;
            max = Integer.MAX_VALUE;
        } else {
            throw in.expected("LINEAR", "REGION", "MANUAL");
        }
        List<Double> numbers = new ArrayList<>();
        while (numbers.size() < max && in.acceptSymbol(",")) {
            boolean negative = in.acceptSymbol("-");
            if (!negative) {
                in.acceptSymbol("+");
            }
            if (!isNumber(in.peek())) {
                throw in.expected("a number");
            }
            if (mode.equals("LINEAR") && in.peek().kind() != Kind.INTEGER) {
                throw in.expected("the number of points (a whole number)");
            }
            numbers.add(((Number) ((BqlAst.Literal) number(negative)).value()).doubleValue());
        }
        if (numbers.size() < min) {
            throw in.expected("','");
        }
        in.expectSymbol(")");
        return track(new BqlAst.Distribution(op, operand, mode, numbers, p), operand);
    }

    /** {@code a}, {@code "a b"}, then up to two of {@code .key}, {@code [index]}, {@code ['key']}, {@code [expression]}. */
    private Expr field() {
        Token head = in.advance();
        Pos p = pos(head);
        List<Object> segments = new ArrayList<>();
        segments.add(head.text());
        StringBuilder name = new StringBuilder(head.text());
        while (in.peek().isSymbol(".") || in.peek().isSymbol("[")) {
            if (segments.size() == 3) {
                throw new BqlSyntaxException(in.peek().line(), in.peek().column(), "fields nest at most two levels deep in BQL",
                                             "Write at most a.b.c, a[0].b or a['k']['j']");
            }
            if (in.acceptSymbol(".")) {
                Token key = in.peek();
                if (key.kind() != Kind.WORD && key.kind() != Kind.QUOTED_NAME) {
                    throw in.expected("a key after '.'");
                }
                in.advance();
                segments.add(key.text());
                name.append('.').append(key.text());
                continue;
            }
            in.advance();
            Token key = in.peek();
            if (key.kind() == Kind.INTEGER && in.peek(1).isSymbol("]") && segments.size() == 1) {
                in.advance();
                segments.add(Integer.valueOf(key.text()));
                name.append('[').append(key.text()).append(']');
            } else if (key.kind() == Kind.STRING && in.peek(1).isSymbol("]")) {
                in.advance();
                segments.add(key.text());
                name.append("['").append(key.text()).append("']");
            } else {
                // bullet-bql's field[expression]; after a key, an index is such an expression too (a[0][1])
                Expr computed = expression();
                segments.add(computed);
                name.append('[').append(name(computed)).append(']');
            }
            in.expectSymbol("]");
        }
        BqlAst.Field f = new BqlAst.Field(List.copyOf(segments), name.toString(), p);
        return track(f, segments.stream().filter(s -> s instanceof Expr).map(s -> (Expr) s).toList());
    }
}
