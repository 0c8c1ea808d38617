package dev.bullet.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.bullet.record.BackwardArrowFixture;
import dev.bullet.querying.FilterEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package layering of docs/ARCHITECTURE.md, enforced on the production classes from the table in that file
 * ({@link LayerTable}): each package uses only the project packages its row allows, every package has a row and a
 * {@code package-info.java}, there is no cycle, and only the Storm adapter touches Storm.
 */
class LayeringTest {
    private static final Path ARCHITECTURE = Path.of("docs", "ARCHITECTURE.md");
    private static final Path SOURCES = Path.of("src", "main", "java");

    private static JavaClasses production;
    private static LayerTable table;

    @BeforeAll
    static void importProductionClassesAndTheTable() throws IOException {
        production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                                            .importPackages(LayerTable.ROOT);
        table = LayerTable.parse(Files.readString(ARCHITECTURE));
    }

    @Test
    void everyPackageUsesOnlyWhatItsRowAllows() {
        table.rule().check(production);
    }

    @Test
    void everyPackageHasARowAndEveryRowAPackage() {
        Set<String> packages = production.stream().map(JavaClass::getPackageName)
                                         .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(packages, new TreeSet<>(table.packages()),
                     "docs/ARCHITECTURE.md's table must list exactly the production packages");
    }

    @Test
    void everyPackageSaysWhereItSits() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES.resolve("dev/bullet"))) {
            Set<Path> withJava = files.filter(f -> f.toString().endsWith(".java")).map(Path::getParent)
                                      .collect(Collectors.toSet());
            for (Path dir : withJava) {
                assertTrue(Files.isRegularFile(dir.resolve("package-info.java")), dir + " has no package-info.java");
            }
        }
    }

    @Test
    void noPackageCyclesAtAnyDepth() {
        slices().matching("dev.bullet.(**)").should().beFreeOfCycles().check(production);
    }

    @Test
    void onlyTheStormAdapterImportsStorm() {
        noClasses().that().resideOutsideOfPackages("dev.bullet.storm", "dev.bullet.storm.serialization")
                   .should().dependOnClassesThat().resideInAPackage("org.apache.storm..")
                   .check(production);
    }

    /** The rule bites: a record class that reaches up into the engine (a test fixture) fails it, naming the arrow. */
    @Test
    void aBackwardArrowFailsTheRule() {
        JavaClasses withFixture = new ClassFileImporter().importClasses(BackwardArrowFixture.class, FilterEngine.class);
        ArchRule rule = table.rule();
        AssertionError failure = assertThrows(AssertionError.class, () -> rule.check(withFixture));
        assertTrue(failure.getMessage().contains(BackwardArrowFixture.class.getName()), failure.getMessage());
        assertTrue(failure.getMessage().contains(FilterEngine.class.getName()), failure.getMessage());
    }

    /** And it lets through what a row allows: the same engine class alone breaks nothing. */
    @Test
    void anAllowedArrowPasses() {
        table.rule().check(new ClassFileImporter().importClasses(FilterEngine.class));
    }
}
