package dev.bullet.record;

import dev.bullet.querying.FilterEngine;

/**
 * A deliberately backward dependency (the record layer reaching up into the engine), for {@code LayeringTest} to
 * prove that the layering rule fails on it. Test code only: the rule's production import never sees it.
 */
public final class BackwardArrowFixture {
    private BackwardArrowFixture() {
    }

    static Class<?> reachesUp() {
        return FilterEngine.class;
    }
}
