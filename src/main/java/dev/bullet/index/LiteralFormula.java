package dev.bullet.index;

import java.util.List;

/** A formula compiled to literal ids: a leaf ({@code id >= 0}) or an AND/OR of children. */
final class LiteralFormula {
    final int id;
    final boolean and;
    final LiteralFormula[] children;

    LiteralFormula(int id) {
        this.id = id;
        this.and = false;
        this.children = null;
    }

    LiteralFormula(boolean and, LiteralFormula[] children) {
        this.id = -1;
        this.and = and;
        this.children = children;
    }

    boolean holds(boolean[] found) {
        if (id >= 0) {
            return found[id];
        }
        for (LiteralFormula child : children) {
            if (child.holds(found) != and) {
                return !and;
            }
        }
        return and;
    }

    void literals(List<Integer> out) {
        if (id >= 0) {
            out.add(id);
        } else {
            for (LiteralFormula child : children) {
                child.literals(out);
            }
        }
    }
}
