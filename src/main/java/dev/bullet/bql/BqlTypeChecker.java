package dev.bullet.bql;

import static dev.bullet.bql.BqlNames.name;

import dev.bullet.bql.BqlAst.Aggregate;
import dev.bullet.bql.BqlAst.Between;
import dev.bullet.bql.BqlAst.Binary;
import dev.bullet.bql.BqlAst.Call;
import dev.bullet.bql.BqlAst.Cast;
import dev.bullet.bql.BqlAst.CountDistinct;
import dev.bullet.bql.BqlAst.Distribution;
import dev.bullet.bql.BqlAst.Expr;
import dev.bullet.bql.BqlAst.Field;
import dev.bullet.bql.BqlAst.IsNull;
import dev.bullet.bql.BqlAst.ListExpr;
import dev.bullet.bql.BqlAst.Literal;
import dev.bullet.bql.BqlAst.Parens;
import dev.bullet.bql.BqlAst.TopK;
import dev.bullet.bql.BqlAst.Unary;
import dev.bullet.query.expr.ExprType;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The types bullet-bql 1.3.2 gives an expression without a schema (its TypeSetter and TypeChecker), and the errors it
 * reports: a field is UNKNOWN (or the type of its hint, {@code a : STRING}), a literal its type, and an operation's
 * type follows from its operands'. A check is skipped when an operand is UNKNOWN, so only what is sure to fail in
 * bullet-bql is refused: {@code 'a' + 1}, {@code 5 = 'x'}, {@code TRIM(5)}, {@code [5, 'a']}, {@code []},
 * {@code 5 AND true}, {@code CAST(NULL AS INTEGER)}, {@code WHERE 5}.
 */
final class BqlTypeChecker {
    private static final ExprType UNKNOWN = ExprType.UNKNOWN;

    private final TranslationContext ctx;

    BqlTypeChecker(TranslationContext ctx) {
        this.ctx = ctx;
    }

    /** Checks the expressions of a statement (not its subquery); WHERE and HAVING must be castable to BOOLEAN. */
    void check(BqlAst.Query q) {
        q.select().stream().filter(i -> i.expr() != null).forEach(i -> type(i.expr()));
        q.lateralViews().forEach(t -> type(t.field()));
        q.selectTableFunctions().forEach(t -> type(t.field()));
        q.groupBy().forEach(this::type);
        q.orderBy().forEach(s -> type(s.expr()));
        condition(q.where(), "WHERE");
        if (!q.selectTableFunctions().isEmpty() && q.where() != null) {
            onlyAliases(q.where(), q.selectTableFunctions().get(0));
        }
        condition(q.having(), "HAVING");
    }

    /**
     * With EXPLODE in SELECT, WHERE sees the generated records, which hold the aliases only: bullet-bql's schema has
     * no other field, and naming one is an error.
     */
    private void onlyAliases(Expr where, BqlAst.TableFn fn) {
        List<Field> fields = new ArrayList<>();
        collectFields(where, fields);
        for (Field f : fields) {
            Object top = f.segments().get(0);
            if (!top.equals(fn.keyAlias()) && !top.equals(fn.valueAlias())) {
                ctx.error(f.pos(), "the field " + top + " does not exist in the records EXPLODE in SELECT generates",
                          "Name only " + fn.keyAlias() + (fn.valueAlias() == null ? "" : " or " + fn.valueAlias())
                          + " in WHERE, or use LATERAL VIEW EXPLODE(...) to keep the record's fields");
            }
        }
    }

    private static void collectFields(Expr e, List<Field> out) {
        if (e instanceof Field f) {
            out.add(f);
        } else if (e instanceof Parens p) {
            collectFields(p.inner(), out);
        } else if (e instanceof Binary b) {
            collectFields(b.left(), out);
            collectFields(b.right(), out);
        } else if (e instanceof Unary u) {
            collectFields(u.operand(), out);
        } else if (e instanceof IsNull n) {
            collectFields(n.operand(), out);
        } else if (e instanceof Call c) {
            c.args().forEach(a -> collectFields(a, out));
        } else if (e instanceof ListExpr l) {
            l.items().forEach(a -> collectFields(a, out));
        } else if (e instanceof Between b) {
            List.of(b.value(), b.lower(), b.upper()).forEach(a -> collectFields(a, out));
        } else if (e instanceof Cast c) {
            collectFields(c.operand(), out);
        }
    }

    private void condition(Expr e, String clause) {
        if (e == null) {
            return;
        }
        ExprType t = type(e);
        if (t != UNKNOWN && !t.canForceCastTo(ExprType.BOOLEAN)) {
            ctx.error(e.pos(), clause + " cannot be cast to BOOLEAN: " + name(e) + " is " + t,
                      "Write a condition in " + clause + ", e.g. " + name(e) + " IS NOT NULL");
        }
    }

    /** The type of {@code e}, reporting what bullet-bql reports about it and its parts. */
    ExprType type(Expr e) {
        if (e instanceof Parens p) {
            return type(p.inner());
        }
        if (e instanceof Literal l) {
            return ExprType.of(l.value());
        }
        if (e instanceof Field f) {
            f.segments().stream().filter(s -> s instanceof Expr).forEach(s -> type((Expr) s));
            return f.hint() == null ? UNKNOWN : hinted(f);
        }
        if (e instanceof ListExpr l) {
            return list(l);
        }
        if (e instanceof Binary b) {
            return binary(b, type(b.left()), type(b.right()));
        }
        if (e instanceof Unary u) {
            return unary(u, type(u.operand()));
        }
        if (e instanceof IsNull n) {
            type(n.operand());
            return ExprType.BOOLEAN;
        }
        if (e instanceof Call c) {
            List<ExprType> args = new ArrayList<>();
            c.args().forEach(a -> args.add(type(a)));
            return call(c, args);
        }
        if (e instanceof Between b) {
            List<ExprType> args = List.of(type(b.value()), type(b.lower()), type(b.upper()));
            if (!args.contains(UNKNOWN) && !allNumericOrAllString(args)) {
                fail(e, "the types of the values in " + name(e) + " must be all numeric or all STRING, got " + args);
            }
            return ExprType.BOOLEAN;
        }
        if (e instanceof Cast c) {
            ExprType from = type(c.operand());
            ExprType to = ExprType.named(c.type());
            if (from != UNKNOWN && !from.canForceCastTo(to)) {
                fail(e, "cannot cast " + name(c.operand()) + " from " + from + " to " + to);
            }
            return to;
        }
        return aggregate(e);
    }

    private ExprType aggregate(Expr e) {
        if (e instanceof Aggregate a) {
            if (a.operand() == null) {
                return ExprType.LONG;
            }
            ExprType t = type(a.operand());
            if (t == UNKNOWN) {
                return ExprType.DOUBLE;
            }
            if (!t.isNumeric() && t != ExprType.BOOLEAN) {
                fail(e, "the argument of " + name(e) + " must be numeric or BOOLEAN, got " + t);
                return ExprType.DOUBLE;
            }
            return a.op().equals("AVG") || t == ExprType.BOOLEAN ? ExprType.DOUBLE : t;
        }
        if (e instanceof CountDistinct c) {
            List<ExprType> types = c.operands().stream().map(this::type).toList();
            if (!types.contains(UNKNOWN) && !types.stream().allMatch(ExprType::isPrimitive)) {
                fail(e, "the arguments of " + name(e) + " must be primitive, got " + types);
            }
            return ExprType.LONG;
        }
        if (e instanceof Distribution d) {
            type(d.operand());
        } else if (e instanceof TopK t) {
            t.operands().forEach(this::type);
        }
        return UNKNOWN;
    }

    /**
     * A hinted field: the hint types its top-level field (as in bullet-bql), so a key of it must suit that type: an
     * index of a LIST, a key of a MAP (an expression key, of either); the field's type is then the member's.
     */
    private ExprType hinted(Field f) {
        ExprType t = f.hint();
        for (Object segment : f.segments().subList(1, f.segments().size())) {
            boolean ok = segment instanceof Expr ? t.isList() || t.isMap()
                    : segment instanceof Integer ? t.isList() : t.isMap();
            if (!ok) {
                fail(f, "the subfield " + f.name() + " is invalid since the field " + f.segments().get(0) + " has type " + t);
                return UNKNOWN;
            }
            t = t.subType();
        }
        return t;
    }

    private ExprType list(ListExpr l) {
        Set<ExprType> types = new LinkedHashSet<>();
        l.items().forEach(i -> types.add(type(i)));
        if (types.isEmpty()) {
            fail(l, "empty lists are not supported");
            return UNKNOWN;
        }
        if (types.contains(UNKNOWN)) {
            return UNKNOWN;
        }
        if (types.size() > 1) {
            fail(l, "the list " + name(l) + " has members of several types: " + types);
            return UNKNOWN;
        }
        ExprType member = types.iterator().next();
        if (!member.isPrimitive() && !member.isPrimitiveMap()) {
            fail(l, "the list " + name(l) + " must hold one primitive or primitive map type, got " + member);
            return UNKNOWN;
        }
        for (ExprType t : ExprType.values()) {
            if (t.isList() && t.subType() == member) {
                return t;
            }
        }
        return UNKNOWN;
    }

    private ExprType unary(Unary u, ExprType t) {
        String op = u.op().toUpperCase();
        ExprType result = switch (op) {
            case "NOT" -> ExprType.BOOLEAN;
            case "SIZEOF", "HASH" -> ExprType.INTEGER;
            case "ABS" -> t;
            case "TRIM", "LOWER", "UPPER" -> ExprType.STRING;
            default -> UNKNOWN;
        };
        if (t == UNKNOWN) {
            return op.equals("ABS") ? ExprType.DOUBLE : result;
        }
        boolean ok = switch (op) {
            case "NOT" -> t.isNumeric() || t == ExprType.BOOLEAN;
            case "SIZEOF" -> t.isList() || t.isMap() || t == ExprType.STRING;
            case "ABS" -> t.isNumeric();
            case "TRIM", "LOWER", "UPPER" -> t == ExprType.STRING;
            default -> true;
        };
        if (!ok) {
            fail(u, "the argument of " + name(u) + " cannot be " + t);
            return op.equals("ABS") ? ExprType.DOUBLE : result;
        }
        return result;
    }

    private ExprType binary(Binary b, ExprType l, ExprType r) {
        String op = b.op().toUpperCase();
        boolean arithmetic = "+-*/%".contains(op) && op.length() == 1;
        ExprType result = arithmetic ? arithmeticType(l, r) : ExprType.BOOLEAN;
        if (l == UNKNOWN || r == UNKNOWN) {
            return arithmetic ? ExprType.DOUBLE : result;
        }
        String problem = arithmetic ? (l.isNumeric() && r.isNumeric() ? null : "must be numeric")
                : binaryProblem(op, b.modifier(), l, r);
        if (problem != null) {
            fail(b, "the operands of " + name(b) + " " + problem + ", got " + l + " and " + r);
            return arithmetic ? ExprType.DOUBLE : result;
        }
        return result;
    }

    private static ExprType arithmeticType(ExprType l, ExprType r) {
        if (l == ExprType.DOUBLE || r == ExprType.DOUBLE) {
            return ExprType.DOUBLE;
        }
        if (l == ExprType.FLOAT || r == ExprType.FLOAT) {
            return ExprType.FLOAT;
        }
        return l == ExprType.LONG || r == ExprType.LONG ? ExprType.LONG : ExprType.INTEGER;
    }

    private static String binaryProblem(String op, String modifier, ExprType l, ExprType r) {
        switch (op) {
            case "AND", "OR", "XOR":
                return l == ExprType.BOOLEAN && r == ExprType.BOOLEAN ? null : "must be BOOLEAN";
            case "RLIKE":
                if (modifier != null) {
                    return l == ExprType.STRING && r == ExprType.STRING_LIST ? null : "must be STRING and STRING_LIST";
                }
                return l == ExprType.STRING && r == ExprType.STRING ? null : "must be STRING";
            case "IN":
                return in(l, r);
            default:
                return comparison(op, modifier, l, r);
        }
    }

    private static String in(ExprType l, ExprType r) {
        if (!l.isPrimitive() || !(r.isList() || r.isMap())) {
            return "must be a primitive and a LIST or MAP";
        }
        ExprType member = r.isComplexList() || r.isComplexMap() ? r.subType().subType() : r.subType();
        return member == l || l.isNumeric() && member.isNumeric() ? null : "must hold the same primitive type";
    }

    private static String comparison(String op, String modifier, ExprType l, ExprType r) {
        boolean equality = op.equals("=") || op.equals("!=") || op.equals("==") || op.equals("<>");
        if (modifier == null) {
            if (equality) {
                return ExprType.canCompare(l, r) ? null : "must be comparable";
            }
            return comparable(l, r) ? null : "must both be numeric or both STRING";
        }
        if (equality) {
            if (!r.isList()) {
                return "must be a value and a LIST";
            }
            return ExprType.canCompare(l, r.subType()) ? null : "must be comparable with the list's members";
        }
        if (!numericOrString(l) || !r.isPrimitiveList() || !numericOrString(r.subType())) {
            return "must be numeric or STRING and a numeric or STRING list";
        }
        return comparable(l, r.subType()) ? null : "must both be numeric or both STRING";
    }

    private ExprType call(Call c, List<ExprType> args) {
        String f = c.function().toUpperCase();
        ExprType result = switch (f) {
            case "IF" -> args.size() == 3 && !args.contains(UNKNOWN) ? args.get(1) : UNKNOWN;
            case "SUBSTRING", "SUBSTR" -> ExprType.STRING;
            case "UNIXTIMESTAMP" -> ExprType.LONG;
            case "FILTER" -> args.isEmpty() ? UNKNOWN : args.get(0);
            default -> ExprType.BOOLEAN;
        };
        if (args.contains(UNKNOWN)) {
            return result;
        }
        String problem = callProblem(f, args);
        if (problem != null) {
            fail(c, "in " + name(c) + ", " + problem + "; types given: " + args);
            return f.equals("IF") || f.equals("FILTER") ? UNKNOWN : result;
        }
        return result;
    }

    private static String callProblem(String f, List<ExprType> a) {
        int n = a.size();
        return switch (f) {
            case "SIZEIS" -> n == 2 && (a.get(0).isList() || a.get(0).isMap() || a.get(0) == ExprType.STRING)
                             && a.get(1).isNumeric() ? null : "the arguments must be a LIST, MAP or STRING and a number";
            case "CONTAINSKEY" -> n == 2 && (a.get(0).isMap() || a.get(0).isComplexList()) && a.get(1) == ExprType.STRING
                                  ? null : "the arguments must be a MAP or MAP_LIST and a STRING";
            case "CONTAINSVALUE" -> n == 2 && (a.get(0).isList() || a.get(0).isMap()) && a.get(1).isPrimitive()
                                    && (a.get(0).subType() == a.get(1) || a.get(0).subType().subType() == a.get(1))
                                    ? null : "the arguments must be a LIST or MAP and a primitive of its type";
            case "FILTER" -> n == 2 && a.get(0).isList() && a.get(1) == ExprType.BOOLEAN_LIST
                             ? null : "the arguments must be a LIST and a BOOLEAN_LIST";
            case "IF" -> n == 3 && a.get(0) == ExprType.BOOLEAN && a.get(1) == a.get(2)
                         ? null : "the condition must be BOOLEAN and the two values of one type";
            case "BETWEEN" -> n == 3 && allNumericOrAllString(a) ? null : "the arguments must be all numeric or all STRING";
            case "SUBSTRING", "SUBSTR" -> (n == 2 || n == 3) && a.get(0) == ExprType.STRING
                                          && a.subList(1, n).stream().allMatch(ExprType::isNumeric)
                                          ? null : "the arguments must be a STRING and numbers";
            case "UNIXTIMESTAMP" -> n == 0 || n == 1 && a.get(0) == ExprType.STRING
                                    || n == 2 && numericOrString(a.get(0)) && a.get(1) == ExprType.STRING
                                    ? null : "the arguments must be a STRING or number and a STRING pattern";
            default -> null;
        };
    }

    private static boolean allNumericOrAllString(List<ExprType> types) {
        return types.stream().allMatch(ExprType::isNumeric) || types.stream().allMatch(t -> t == ExprType.STRING);
    }

    private static boolean comparable(ExprType l, ExprType r) {
        return l.isNumeric() && r.isNumeric() || l == ExprType.STRING && r == ExprType.STRING;
    }

    private static boolean numericOrString(ExprType t) {
        return t != null && (t.isNumeric() || t == ExprType.STRING);
    }

    private void fail(Expr e, String message) {
        ctx.error(e.pos(), message + " (bullet-bql's type check)",
                  "Use operands of the types the operation takes, or CAST them");
    }
}
