package dev.bullet.architecture;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * The package table of docs/ARCHITECTURE.md as rules: a row {@code | layer | `package` | what | `a`, `b` |} lets the
 * classes of {@code dev.bullet.package} (that package only, not its subpackages, which have rows of their own) use
 * the project packages {@code a} and {@code b}, themselves, and anything outside the project. {@code dev.bullet} names
 * the root package; {@code —} allows no other project package.
 */
final class LayerTable {
    static final String ROOT = "dev.bullet";
    private static final Pattern ROW = Pattern.compile("^\\|\\s*\\d+\\s*\\|\\s*`([a-z.]+)`\\s*\\|.*\\|([^|]*)\\|\\s*$");
    private static final Pattern NAME = Pattern.compile("`([a-z.]+)`");

    private final Map<String, List<String>> allowed;

    private LayerTable(Map<String, List<String>> allowed) {
        this.allowed = allowed;
    }

    /** The rows of the table in the Markdown text; fails when there is none or a package has two. */
    static LayerTable parse(String markdown) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : markdown.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            List<String> uses = new ArrayList<>();
            Matcher name = NAME.matcher(row.group(2));
            while (name.find()) {
                uses.add(qualified(name.group(1)));
            }
            if (rows.put(qualified(row.group(1)), uses) != null) {
                throw new IllegalArgumentException("two rows for " + row.group(1));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no package table");
        }
        return new LayerTable(rows);
    }

    /** The packages the table has a row for, fully qualified. */
    List<String> packages() {
        return List.copyOf(allowed.keySet());
    }

    /** What the package's row allows it to use besides itself, fully qualified. */
    List<String> allowed(String pkg) {
        return allowed.get(pkg);
    }

    /** One rule per row: the package's classes depend on no project package outside the row. */
    ArchRule rule() {
        List<ArchRule> rules = new ArrayList<>();
        for (Map.Entry<String, List<String>> row : allowed.entrySet()) {
            List<String> ok = new ArrayList<>(row.getValue());
            ok.add(row.getKey());
            rules.add(classes().that().resideInAPackage(row.getKey())
                               .should().onlyDependOnClassesThat(resideOutsideOfPackage(ROOT + "..")
                                                                     .or(resideInAnyPackage(ok.toArray(String[]::new))))
                               .as("classes in " + row.getKey() + " use only " + ok + " of the project")
                               .allowEmptyShould(true));
        }
        return CompositeArchRule.of(rules);
    }

    private static String qualified(String name) {
        return name.equals(ROOT) ? ROOT : ROOT + "." + name;
    }
}
