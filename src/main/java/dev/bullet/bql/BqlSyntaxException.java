package dev.bullet.bql;

/**
 * A BQL syntax error at a position. Thrown inside the recursive-descent parser only, to unwind it, and turned into
 * an error value by {@link Bql#translate}; it never leaves this package.
 */
final class BqlSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int line;
    final int column;
    final String resolution;

    BqlSyntaxException(int line, int column, String message, String resolution) {
        super(message, null, false, false);
        this.line = line;
        this.column = column;
        this.resolution = resolution;
    }
}
