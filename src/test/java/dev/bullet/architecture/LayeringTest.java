package dev.bullet.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package layering of docs/ARCHITECTURE.md, enforced on the production classes: the pipeline's packages depend
 * only downwards, and only the Storm adapter touches Storm. A new arrow that runs backwards fails the build here.
 */
class LayeringTest {
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                                            .importPackages("dev.bullet");
    }

    @Test
    void topLevelPackagesHaveNoCycles() {
        slices().matching("dev.bullet.(*)..").should().beFreeOfCycles().check(production);
    }

    @Test
    void noPackageCyclesAtAnyDepth() {
        slices().matching("dev.bullet.(**)").should().beFreeOfCycles().check(production);
    }

    @Test
    void onlyTheStormAdapterImportsStorm() {
        noClasses().that().resideOutsideOfPackage("dev.bullet.storm..")
                   .should().dependOnClassesThat().resideInAPackage("org.apache.storm..")
                   .check(production);
    }

    @Test
    void theModelAndTheRecordKnowNothingOfTheEngine() {
        noClasses().that().resideInAnyPackage("dev.bullet.common..", "dev.bullet.config..", "dev.bullet.record..",
                                              "dev.bullet.query..")
                   .should().dependOnClassesThat().resideInAnyPackage("dev.bullet.querying..", "dev.bullet.index..",
                                                                      "dev.bullet.storm..", "dev.bullet.rest..",
                                                                      "dev.bullet.pubsub..", "dev.bullet.ingest..",
                                                                      "dev.bullet.local..", "dev.bullet.metrics..")
                   .check(production);
    }

    @Test
    void theIndexSitsBelowTheEngine() {
        noClasses().that().resideInAPackage("dev.bullet.index..")
                   .should().dependOnClassesThat().resideInAPackage("dev.bullet.querying..")
                   .check(production);
    }

    @Test
    void theRestServiceDoesNotDependOnTheTopology() {
        noClasses().that().resideInAPackage("dev.bullet.rest..")
                   .should().dependOnClassesThat().resideInAnyPackage("dev.bullet.storm..", "dev.bullet.ingest..",
                                                                      "dev.bullet.local..")
                   .check(production);
    }

    @Test
    void kafkaIngestionIsPlainKafkaClientCode() {
        noClasses().that().resideInAPackage("dev.bullet.ingest..")
                   .should().dependOnClassesThat().resideInAnyPackage("dev.bullet.storm..", "dev.bullet.querying..",
                                                                      "dev.bullet.rest..", "dev.bullet.local..")
                   .check(production);
    }
}
