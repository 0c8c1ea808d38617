package dev.bullet.query;

import dev.bullet.query.expr.Expr;

/** A computed column of a projection: its output name and the expression that gives its value. Immutable. */
public record ComputedField(String name, Expr expression) {
}
