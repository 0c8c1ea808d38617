package dev.bullet.bql;

import static dev.bullet.bql.TokenCursor.pos;

import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.bql.BqlLexer.Kind;
import dev.bullet.bql.BqlLexer.Token;

import java.util.ArrayList;
import java.util.List;

/**
 * A recursive-descent parser for bullet-bql 1.3's grammar: one statement into a {@link BqlAst.Query}. This class
 * reads the clauses (SELECT, FROM STREAM(...) or FROM (subquery), WHERE, GROUP BY, HAVING, ORDER BY, WINDOWING, LIMIT); the
 * expressions inside them are read by {@link ExpressionParser}, over one shared {@link TokenCursor}.
 *
 * <p>Constructs that the grammar has but this project's model cannot run (a subquery in a subquery, type hints, ...) are
 * parsed where cheap and left as {@link BqlAst.Unsupported} for the translator to report with a resolution, or are
 * a syntax error naming the construct.
 */
final class BqlParser {
    private final TokenCursor in;
    private final ExpressionParser expressions;
    /** The table functions met in the SELECT list. */
    private final List<BqlAst.TableFn> selectTableFunctions = new ArrayList<>();

    private BqlParser(TokenCursor in, int maxDepth) {
        this.in = in;
        this.expressions = new ExpressionParser(in, maxDepth);
    }

    /**
     * Parses one statement whose expressions nest at most {@code maxDepth} levels.
     *
     * @throws BqlSyntaxException at the first syntax error, or where the nesting goes deeper
     */
    static BqlAst.Query parse(String text, int maxDepth) {
        return new BqlParser(new TokenCursor(BqlLexer.tokenize(text)), maxDepth).statement();
    }

    private BqlAst.Query statement() {
        BqlAst.Query query = query(false);
        in.acceptSymbol(";");
        if (in.peek().kind() != Kind.END) {
            throw notAtEnd(query);
        }
        return query;
    }

    /**
     * One query: bullet-bql's {@code innerQuery} (FROM STREAM(...)) or, at the top only, its {@code outerQuery}
     * (FROM a parenthesized inner query, no WINDOWING).
     */
    private BqlAst.Query query(boolean nested) {
        in.expectWord("SELECT");
        boolean distinct = in.acceptWord("DISTINCT");
        List<BqlAst.SelectItem> select = new ArrayList<>();
        do {
            BqlAst.SelectItem item = selectItem();
            if (item != null) {
                select.add(item);
            }
        } while (in.acceptSymbol(","));
        List<BqlAst.TableFn> tableFunctions = List.copyOf(selectTableFunctions);
        selectTableFunctions.clear();
        in.expectWord("FROM");
        BqlAst.Query subquery = null;
        Long duration = null;
        if (!nested && in.acceptSymbol("(")) {
            subquery = query(true);
            in.expectSymbol(")");
        } else {
            duration = stream();
        }
        List<BqlAst.TableFn> lateralViews = new ArrayList<>();
        while (in.peek().is("LATERAL")) {
            in.advance();
            in.expectWord("VIEW");
            lateralViews.add(tableFunction());
        }
        Expr where = null;
        List<Expr> groupBy = List.of();
        Expr having = null;
        List<BqlAst.SortItem> orderBy = List.of();
        BqlAst.Window window = null;
        Long limit = null;
        Pos limitPos = null;
        if (in.acceptWord("WHERE")) {
            where = stripParentheses(expressions.expression());
        }
        if (in.peek().is("GROUP")) {
            in.advance();
            in.expectWord("BY");
            groupBy = expressions.expressionList().stream().map(BqlParser::stripParentheses).toList();
        }
        if (in.acceptWord("HAVING")) {
            having = stripParentheses(expressions.expression());
        }
        if (in.peek().is("ORDER")) {
            in.advance();
            in.expectWord("BY");
            orderBy = sortItems();
        }
        if (subquery == null && in.peek().is("WINDOWING")) {
            in.advance();
            window = window();
        }
        if (in.peek().is("LIMIT")) {
            limitPos = pos(in.advance());
            limit = in.wholeNumber("the LIMIT");
        }
        return new BqlAst.Query(distinct, select, duration, where, groupBy, having, orderBy, window, limit,
                                limitPos, lateralViews, tableFunctions, subquery);
    }

    /**
     * A select item, WHERE, GROUP BY item, HAVING or ORDER BY item without its outer parentheses, as bullet-bql's AST
     * builder takes them off (one level; {@link ExpressionParser} keeps at most one around an expression).
     */
    private static Expr stripParentheses(Expr e) {
        return e instanceof BqlAst.Parens p ? p.inner() : e;
    }

    /** The items after ORDER BY: expressions, each optionally followed by ASC or DESC. */
    private List<BqlAst.SortItem> sortItems() {
        List<BqlAst.SortItem> orderBy = new ArrayList<>();
        do {
            Expr e = stripParentheses(expressions.expression());
            boolean descending = false;
            if (in.acceptWord("DESC")) {
                descending = true;
            } else {
                in.acceptWord("ASC");
            }
            orderBy.add(new BqlAst.SortItem(e, descending));
        } while (in.acceptSymbol(","));
        return orderBy;
    }

    /** The error for text after the statement: it names the clauses that could still have come there. */
    private BqlSyntaxException notAtEnd(BqlAst.Query q) {
        Expr where = q.where();
        List<Expr> groupBy = q.groupBy();
        Expr having = q.having();
        List<BqlAst.SortItem> orderBy = q.orderBy();
        BqlAst.Window window = q.window();
        Long limit = q.limit();
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
        return in.expected(clauses.toArray(String[]::new));
    }

    /** {@code [OUTER] EXPLODE(expression) AS alias} or {@code ... AS (keyAlias, valueAlias)}. */
    private BqlAst.TableFn tableFunction() {
        Token start = in.peek();
        boolean outer = in.acceptWord("OUTER");
        in.expectWord("EXPLODE");
        in.expectSymbol("(");
        Expr field = expressions.expression();
        in.expectSymbol(")");
        in.expectWord("AS");
        if (in.acceptSymbol("(")) {
            String key = in.identifier("the key alias");
            in.expectSymbol(",");
            String value = in.identifier("the value alias");
            in.expectSymbol(")");
            return new BqlAst.TableFn(outer, field, key, value, pos(start));
        }
        return new BqlAst.TableFn(outer, field, in.identifier("the alias after AS"), null, pos(start));
    }

    /** One item of the SELECT list, or null for a table function (kept in {@link #selectTableFunctions}). */
    private BqlAst.SelectItem selectItem() {
        Token start = in.peek();
        if (in.acceptSymbol("*")) {
            return new BqlAst.SelectItem(null, null, pos(start));
        }
        if (start.is("OUTER") || start.is("EXPLODE")) {
            selectTableFunctions.add(tableFunction());
            return null;
        }
        Expr e = stripParentheses(expressions.expression());
        String alias = null;
        if (in.acceptWord("AS")) {
            alias = in.identifier("a name after AS");
        } else if (in.isIdentifier(in.peek())) {
            alias = in.identifier("a name");
        }
        return new BqlAst.SelectItem(e, alias, pos(start));
    }

    /** {@code STREAM()}, {@code STREAM(n, TIME)}, {@code STREAM(MAX, TIME)}: the duration, or null. */
    private Long stream() {
        if (in.peek().isSymbol("(")) {
            throw in.unsupported("a subquery inside a subquery (FROM (SELECT ... FROM (SELECT ...)))",
                                 "Nest one level only: SELECT ... FROM (SELECT ... FROM STREAM(...))");
        }
        in.expectWord("STREAM");
        in.expectSymbol("(");
        Long duration = null;
        if (!in.acceptSymbol(")")) {
            if (in.acceptWord("MAX")) {
                duration = Long.MAX_VALUE;
            } else if (in.peek().kind() == Kind.INTEGER) {
                duration = in.wholeNumber("the duration");
            } else {
                throw in.expected("')'", "a duration in milliseconds", "MAX");
            }
            in.expectSymbol(",");
            in.expectWord("TIME");
            in.expectSymbol(")");
        }
        return duration;
    }

    private BqlAst.Window window() {
        Token start = in.peek();
        if (in.acceptWord("EVERY")) {
            in.expectSymbol("(");
            long every = in.wholeNumber("the emit interval");
            in.expectSymbol(",");
            String emit = unit();
            in.expectSymbol(",");
            String includeUnit;
            Long first = null;
            if (in.acceptWord("ALL")) {
                includeUnit = "ALL";
            } else if (in.acceptWord("FIRST")) {
                in.expectSymbol(",");
                first = in.wholeNumber("the FIRST size");
                in.expectSymbol(",");
                includeUnit = unit();
            } else {
                throw in.expected("ALL", "FIRST");
            }
            in.expectSymbol(")");
            return new BqlAst.Window(every, emit, includeUnit, first, pos(start));
        }
        if (in.acceptWord("TUMBLING")) {
            in.expectSymbol("(");
            long every = in.wholeNumber("the window size");
            in.expectSymbol(",");
            String emit = unit();
            in.expectSymbol(")");
            return new BqlAst.Window(every, emit, null, null, pos(start));
        }
        throw in.expected("EVERY", "TUMBLING");
    }

    private String unit() {
        if (in.acceptWord("TIME")) {
            return "TIME";
        }
        if (in.acceptWord("RECORD")) {
            return "RECORD";
        }
        throw in.expected("TIME", "RECORD");
    }
}
