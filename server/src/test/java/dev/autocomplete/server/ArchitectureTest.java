package dev.autocomplete.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering the build enforces, on the compiled classes of the server, the SPI and the catalog index (ArchUnit):
 * no package cycle among the server's packages or the SPI's; the server names no engine module (engines are
 * plug-ins, found through ServiceLoader); the SPI's contracts name none of its helpers; the index names nothing of
 * the project's but itself.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.autocomplete.server", "dev.autocomplete.spi", "dev.autocomplete.index");

    @Test
    void the_servers_packages_have_no_cycle() {
        slices().matching("dev.autocomplete.server.(*)..")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void the_spi_and_the_index_have_no_cycle() {
        slices().matching("dev.autocomplete.(spi|index)..")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
        slices().matching("dev.autocomplete.spi.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void the_server_names_no_engine_module() {
        noClasses()
                .that()
                .resideInAPackage("dev.autocomplete.server..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.autocomplete.engine..")
                .because("engines are plug-ins found through ServiceLoader; the server compiles against none")
                .check(CLASSES);
    }

    @Test
    void the_spis_contracts_name_none_of_its_helpers() {
        noClasses()
                .that()
                .resideInAPackage("dev.autocomplete.spi")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.autocomplete.spi.toolkit..", "dev.autocomplete.index..")
                .because("an engine's contracts are the stable part; helpers build on them, not the reverse")
                .check(CLASSES);
    }

    @Test
    void the_index_names_nothing_of_the_project_but_itself() {
        noClasses()
                .that()
                .resideInAPackage("dev.autocomplete.index..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.autocomplete.spi..", "dev.autocomplete.server..")
                .because("the index sits below the SPI, which offers it to engines as the toolkit's Lookup")
                .check(CLASSES);
    }
}
