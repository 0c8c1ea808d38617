package dev.bullet.record;

/**
 * A map or list read in place from a record's bytes, which a reader may type from those bytes and which keeps what the
 * reader made of its members' types: bullet-core types a container by all its members (one type, several maps, or
 * none), which would take a walk and a decode of each member; here a member's kind is read from its first bytes
 * ({@link #memberKind}) and only containers are read further, and the queries that read one record's field share its
 * view, so it is typed once for all of them. The memo is the reader's (an {@code ExprType}); the view only holds it.
 * A record is read by one thread at a time.
 */
public interface TypeMemo {
    /** {@link #memberKind}: the member is null. */
    int NULL_MEMBER = 0;
    /** {@link #memberKind}: a string. */
    int STRING_MEMBER = 1;
    /** {@link #memberKind}: a boolean. */
    int BOOLEAN_MEMBER = 2;
    /** {@link #memberKind}: a number the decode gives as a {@code Long}. */
    int LONG_MEMBER = 3;
    /** {@link #memberKind}: a number the decode gives as a {@code Double}. */
    int DOUBLE_MEMBER = 4;
    /** {@link #memberKind}: a map or a list ({@link #member} gives its view). */
    int CONTAINER_MEMBER = 5;

    /** What {@link #typeMemo(Object)} was given, or null. */
    Object typeMemo();

    void typeMemo(Object type);

    /** How many members it has (a map's distinct keys). */
    int memberCount();

    /**
     * The kind of member {@code i} ({@code 0 <= i < memberCount()}, a map's in its entries' order): the class of the
     * value a decode gives it, read from its bytes without building it.
     */
    int memberKind(int i);

    /** Member {@code i} as a decode gives it (a view for a container). */
    Object member(int i);
}
