package dev.bullet.record;

/**
 * A map or list read in place from a record's bytes that keeps what a reader made of its members' types: bullet-core
 * types a container by all its members (one type, several maps, or none), which takes a walk and a decode of each
 * member; the queries that read one record's field share its view, so it is typed once for all of them. The memo is
 * the reader's (an {@code ExprType}); the view only holds it. A record is read by one thread at a time.
 */
public interface TypeMemo {
    /** What {@link #typeMemo(Object)} was given, or null. */
    Object typeMemo();

    void typeMemo(Object type);
}
