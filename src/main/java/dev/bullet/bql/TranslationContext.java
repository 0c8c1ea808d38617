package dev.bullet.bql;

import dev.bullet.bql.BqlAst.Pos;
import dev.bullet.common.BulletError;

import java.util.ArrayList;
import java.util.List;

/**
 * What the clause translators of one statement share: the statement, and every problem found so far in the order
 * found. One context per translation; not thread-safe.
 */
final class TranslationContext {
    final BqlAst.Query q;
    private final List<BulletError> errors = new ArrayList<>();

    TranslationContext(BqlAst.Query q) {
        this.q = q;
    }

    /** Records a problem; {@code pos} null for one of the whole query. */
    void error(Pos pos, String message, String... resolutions) {
        errors.add(BulletError.of((pos == null ? "" : "BQL " + pos + ": ") + message, resolutions));
    }

    /** How many problems have been found so far: a mark to {@link #rollBack} to. */
    int mark() {
        return errors.size();
    }

    /** Forgets the problems found since {@code mark}: a translation that was tried and is replaced. */
    void rollBack(int mark) {
        errors.subList(mark, errors.size()).clear();
    }

    /** The problems found, in order; empty when the statement translated. */
    List<BulletError> errors() {
        return List.copyOf(errors);
    }
}
