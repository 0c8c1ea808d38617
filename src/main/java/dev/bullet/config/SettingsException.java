package dev.bullet.config;

import dev.bullet.BulletException;

import java.util.List;

/**
 * The settings could not be loaded: every problem found — unknown keys, wrong types, values out of range, broken
 * cross-key rules, unreadable files — each naming its key, reported together so a user fixes them in one pass.
 */
public final class SettingsException extends BulletException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    SettingsException(List<String> problems) {
        super(render(problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, e.g. {@code bullet.query.max.duration (in my.yaml): must be at least 1, got 0}. */
    public List<String> problems() {
        return problems;
    }

    private static String render(List<String> problems) {
        StringBuilder message = new StringBuilder("Invalid Bullet settings (")
                .append(problems.size()).append(problems.size() == 1 ? " problem):" : " problems):");
        for (String problem : problems) {
            message.append(System.lineSeparator()).append("  - ").append(problem);
        }
        return message.toString();
    }
}
