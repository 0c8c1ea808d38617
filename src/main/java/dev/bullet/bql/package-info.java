/**
 * BQL, the SQL dialect of bullet-bql 1.3.2 (its grammar, operator precedence, column names and query types), as a
 * front end to this project's query model. The pipeline is: BQL text, tokens ({@link dev.bullet.bql.BqlLexer}), a
 * syntax tree ({@link dev.bullet.bql.BqlAst}), the JSON query of SPEC §6, which
 * {@link dev.bullet.query.QueryParser} validates into the immutable query model of {@code dev.bullet.query} like
 * any JSON query. Where a query enters (REST, the offline runner, the topology), {@code QueryParser} recognises BQL
 * and calls this package.
 *
 * <p>The public face is {@link dev.bullet.bql.Bql}: {@link dev.bullet.bql.Bql#looksLikeBql} and
 * {@link dev.bullet.bql.Bql#translate}, which returns either the JSON query or every problem found, each with a
 * resolution. Everything else is package-private:
 * <ul>
 *   <li>{@link dev.bullet.bql.BqlLexer}: text into tokens with line and column.</li>
 *   <li>{@link dev.bullet.bql.BqlParser}: the statement's clauses; {@link dev.bullet.bql.ExpressionParser}: the
 *       expressions in them; both read one {@link dev.bullet.bql.TokenCursor}. A syntax error is a
 *       {@link dev.bullet.bql.BqlSyntaxException}, which does not leave the package.</li>
 *   <li>{@link dev.bullet.bql.BqlTranslator}: the syntax tree into the JSON query. It decides the query type and the
 *       query-level checks (HAVING, LIMIT, the STREAM duration) and delegates each clause:
 *       {@link dev.bullet.bql.FilterTranslator} (WHERE, HAVING), {@link dev.bullet.bql.SelectTranslator} (queries
 *       without aggregates), {@link dev.bullet.bql.AggregationTranslator} (GROUP BY, COUNT DISTINCT, distributions,
 *       TOP), {@link dev.bullet.bql.PostAggregationTranslator} (ORDER BY, arithmetic in SELECT) and
 *       {@link dev.bullet.bql.WindowTranslator} (WINDOWING). They extend {@link dev.bullet.bql.ClauseTranslator} and
 *       share one {@link dev.bullet.bql.TranslationContext}, which collects the problems in the order found;
 *       {@link dev.bullet.bql.BqlNames} gives expressions and columns bullet-bql's names;
 *       {@link dev.bullet.bql.ExprBuilder} turns an expression into the expression model ({@code query.expr}) as
 *       bullet-bql builds it, for expression filters ({@code {"expression": ...}} in "filters") and computed columns
 *       ({@code projection.computed}).</li>
 * </ul>
 */
package dev.bullet.bql;
