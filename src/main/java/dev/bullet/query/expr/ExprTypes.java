package dev.bullet.query.expr;

import java.util.List;

/**
 * The static type of each node, as far as the tree alone tells it (bullet-core's result types): arithmetic is DOUBLE if
 * either side is, else FLOAT, else LONG, else INTEGER (UNKNOWN when a side's type is not a known number); comparisons
 * and the logical operations are BOOLEAN; SIZEOF and HASH are INTEGER; TRIM, LOWER, UPPER and SUBSTRING are STRING;
 * UNIXTIMESTAMP is LONG; ABS keeps a numeric type; IF is its branches' type when they agree; FILTER keeps its list's.
 */
final class ExprTypes {
    private ExprTypes() {
    }

    static ExprType list(List<Expr> values) {
        ExprType member = null;
        for (Expr value : values) {
            ExprType type = value.type();
            if (!type.isPrimitive() || member != null && member != type) {
                return ExprType.UNKNOWN;
            }
            member = type;
        }
        if (member == null) {
            return ExprType.UNKNOWN;
        }
        return switch (member) {
            case STRING -> ExprType.STRING_LIST;
            case BOOLEAN -> ExprType.BOOLEAN_LIST;
            case INTEGER -> ExprType.INTEGER_LIST;
            case LONG -> ExprType.LONG_LIST;
            case FLOAT -> ExprType.FLOAT_LIST;
            default -> ExprType.DOUBLE_LIST;
        };
    }

    static ExprType unary(Op op, Expr operand) {
        return switch (op) {
            case NOT, IS_NULL, IS_NOT_NULL -> ExprType.BOOLEAN;
            case SIZE_OF, HASH -> ExprType.INTEGER;
            case TRIM, LOWER, UPPER -> ExprType.STRING;
            case ABS -> operand.type().isNumeric() ? operand.type() : ExprType.UNKNOWN;
            default -> ExprType.UNKNOWN;
        };
    }

    static ExprType binary(Op op, Expr left, Expr right) {
        if (op.isArithmetic()) {
            return arithmetic(left.type(), right.type());
        }
        if (op == Op.FILTER) {
            return left.type();
        }
        return ExprType.BOOLEAN;
    }

    static ExprType arithmetic(ExprType left, ExprType right) {
        if (!left.isNumeric() || !right.isNumeric()) {
            return ExprType.UNKNOWN;
        }
        if (left == ExprType.DOUBLE || right == ExprType.DOUBLE) {
            return ExprType.DOUBLE;
        }
        if (left == ExprType.FLOAT || right == ExprType.FLOAT) {
            return ExprType.FLOAT;
        }
        return left == ExprType.LONG || right == ExprType.LONG ? ExprType.LONG : ExprType.INTEGER;
    }

    static ExprType nAry(Op op, List<Expr> operands) {
        return switch (op) {
            case AND, OR, BETWEEN, NOT_BETWEEN -> ExprType.BOOLEAN;
            case SUBSTRING -> ExprType.STRING;
            case UNIX_TIMESTAMP -> ExprType.LONG;
            case IF -> operands.size() == 3 && operands.get(1).type() == operands.get(2).type()
                    ? operands.get(1).type() : ExprType.UNKNOWN;
            default -> ExprType.UNKNOWN;
        };
    }
}
