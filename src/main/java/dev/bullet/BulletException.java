package dev.bullet;

/**
 * Root of the project's small exception hierarchy. Thrown for problems the caller cannot fix by retrying —
 * bad settings at submission, a broken plug-in class — never for bad user input on the hot path, which is
 * reported as a value (a validation error list, a counted skipped record).
 */
public class BulletException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BulletException(String message) {
        super(message);
    }

    public BulletException(String message, Throwable cause) {
        super(message, cause);
    }
}
