package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.tenant.EngineJars;
import dev.autocomplete.server.tenant.Problem;
import dev.autocomplete.spi.SpiVersion;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant's engine JARs, built by the reactor, as the server finds them: never a silent pick between two
 * engines of one name, a JAR built for another SPI major refused with what to do, and each load reading
 * private copies of the JARs.
 */
class EngineJarsTest {

    private static final String TENANT_YAML = """
            display_name: Shop
            products:
              - id: 3b5c7d9e-2f4a-4b6c-8d0e-1f2a3b4c5d6e
                slug: shop
                prompt: Buy
                intents:
                  - name: buy
                    phrases: [Buy]
                    params:
                      - type: size
                        options: [Small, Large]
            """;

    @TempDir
    Path temp;

    private Path tenant() throws Exception {
        Path tenant =
                Files.createDirectories(temp.resolve("tenants/shop/engines")).getParent();
        Files.writeString(tenant.resolve("tenant.yaml"), TENANT_YAML);
        return tenant;
    }

    private static Path faultyJar() {
        return EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar");
    }

    private static Path probeJar() {
        return EngineIsolationTest.engineJar("autocomplete.test.libAEngineJar");
    }

    private static String problems(Path tenant) {
        try (EngineJars.Found found = new EngineJars().find(tenant, "shop")) {
            return found.problems().stream().map(Problem::toString).toList().toString();
        }
    }

    /**
     * An engine author's trial: the tenant's only JAR, its factory class there but not its service file, was refused
     * with "no EngineFactory found in engine-tickets.jar (is META-INF/services/... in the JAR?)", which named no class,
     * and the param naming its engine was told nothing. As the guide says, it loads as a library, and that param is
     * told which class the JAR holds and which file to add.
     */
    @Test
    void a_lone_jar_without_its_service_file_loads_as_a_library_and_its_param_is_told_which_class() throws Exception {
        Path tenant = tenant();
        serviceLessFaultyJar(tenant);
        assertEquals("[]", problems(tenant), "a library, no problem of its own");
        TestTenants.Cli validate = validateNamingFaulty(tenant);

        assertEquals(1, validate.exit(), validate.err());
        assertTrue(
                validate.err().contains("names no engine 'faulty'; available: catalog, date (")
                        && validate.err()
                                .contains("faulty.jar holds dev.autocomplete.engine.faulty.FaultyEngineFactory, which"
                                        + " names dev.autocomplete.spi.EngineFactory, but no"
                                        + " META-INF/services/dev.autocomplete.spi.EngineFactory listing it, so it is"
                                        + " loaded as a library and provides no engine (add that file to the JAR, e.g."
                                        + " as src/main/resources/META-INF/services/dev.autocomplete.spi.EngineFactory,"
                                        + " its one line dev.autocomplete.engine.faulty.FaultyEngineFactory)"),
                validate.err());
    }

    /** The faulty engine's JAR in the tenant's engines, its service file emptied: a library, providing no engine. */
    private static void serviceLessFaultyJar(Path tenant) throws Exception {
        EngineJarFiles.withEntry(
                faultyJar(),
                "META-INF/services/dev.autocomplete.spi.EngineFactory",
                "",
                tenant.resolve("engines/faulty.jar"));
    }

    /** {@code validate} of the tenants once the tenant's param names the engine {@code faulty}. */
    private TestTenants.Cli validateNamingFaulty(Path tenant) throws Exception {
        Files.writeString(
                tenant.resolve("tenant.yaml"), TENANT_YAML.replace("options: [Small, Large]", "engine: faulty"));
        return TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());
    }

    /**
     * An engine author's trial: a JAR whose factory class was there but not its service file loaded silently as a
     * library beside other engine JARs, and the param naming its engine was told only the engines there are.
     */
    @Test
    void a_param_naming_an_engine_whose_jar_lacks_its_service_file_is_told_which_jar_and_class() throws Exception {
        Path tenant = tenant();
        Files.copy(probeJar(), tenant.resolve("engines/probe.jar"));
        serviceLessFaultyJar(tenant);
        TestTenants.Cli validate = validateNamingFaulty(tenant);

        assertEquals(1, validate.exit(), validate.err());
        assertTrue(
                validate.err().contains("names no engine 'faulty'; available: catalog, date, library-probe")
                        && validate.err()
                                .contains("faulty.jar holds dev.autocomplete.engine.faulty.FaultyEngineFactory, which"
                                        + " names dev.autocomplete.spi.EngineFactory, but no"
                                        + " META-INF/services/dev.autocomplete.spi.EngineFactory listing it"),
                validate.err());
    }

    @Test
    void two_jars_that_provide_one_engine_name_are_a_validate_error_naming_both() throws Exception {
        Path tenant = tenant();
        Files.copy(probeJar(), tenant.resolve("engines/probe.jar"));
        EngineJarFiles.withEntry(
                faultyJar(), EngineJarFiles.FAULTY_NAME, "library-probe", tenant.resolve("engines/renamed.jar"));

        TestTenants.Cli validate =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());

        assertEquals(1, validate.exit(), validate.err());
        assertTrue(
                validate.err().contains("engine name 'library-probe' is provided by both probe.jar and renamed.jar"),
                validate.err());
    }

    @Test
    void two_builds_of_one_engine_side_by_side_are_refused_naming_both() throws Exception {
        Path tenant = tenant();
        Files.copy(faultyJar(), tenant.resolve("engines/faulty-1.0.jar"));
        Files.copy(faultyJar(), tenant.resolve("engines/faulty-1.1.jar"));

        String problems = problems(tenant);

        assertTrue(problems.contains("is in both faulty-1.0.jar and faulty-1.1.jar"), problems);
    }

    @Test
    void a_jar_that_reuses_a_built_in_engines_name_is_refused_naming_the_jar_and_built_in() throws Exception {
        Path tenant = tenant();
        EngineJarFiles.withEntry(
                faultyJar(), EngineJarFiles.FAULTY_NAME, "catalog", tenant.resolve("engines/my-catalog.jar"));

        String problems = problems(tenant);

        assertTrue(
                problems.contains("engine name 'catalog' in my-catalog.jar is already the name of a built-in engine"),
                problems);
    }

    @Test
    void a_jar_without_the_spi_version_is_refused_with_what_to_do() throws Exception {
        Path tenant = tenant();
        EngineJarFiles.withSpiVersion(faultyJar(), null, tenant.resolve("engines/old.jar"));

        TestTenants.Cli validate =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());

        assertEquals(1, validate.exit(), validate.err());
        assertTrue(
                validate.err()
                        .contains("old.jar does not say which engine SPI version it was built for (no "
                                + SpiVersion.MANIFEST_ATTRIBUTE
                                + " in its manifest); this server speaks engine SPI version "
                                + SpiVersion.MAJOR),
                validate.err());
        assertTrue(validate.err().contains("docs/engine-guide.md"), validate.err());
    }

    @Test
    void a_jar_built_for_another_spi_major_is_refused_naming_both_versions() throws Exception {
        Path tenant = tenant();
        EngineJarFiles.withSpiVersion(faultyJar(), "1", tenant.resolve("engines/old.jar"));
        EngineJarFiles.withSpiVersion(probeJar(), SpiVersion.MAJOR + ".3", tenant.resolve("engines/minor.jar"));

        String problems = problems(tenant);

        assertTrue(
                problems.contains("old.jar was built for engine SPI version 1 (" + SpiVersion.MANIFEST_ATTRIBUTE
                        + "); this server speaks engine SPI version " + SpiVersion.MAJOR + "; rebuild the engine"),
                problems);
        assertFalse(problems.contains("minor.jar"), "another minor version of the same major loads: " + problems);
    }

    @Test
    void validate_warns_of_an_engine_too_slow_for_its_start_up_probe_naming_the_product() throws Exception {
        Path tenant = tenant();
        Files.copy(faultyJar(), tenant.resolve("engines/faulty.jar"));
        String withSlowEngine = TENANT_YAML.replace(
                "          - type: size\n",
                "          - type: thing\n            engine: faulty\n            fault: hang\n          - type: size\n");
        assertNotEquals(TENANT_YAML, withSlowEngine);
        Files.writeString(tenant.resolve("tenant.yaml"), withSlowEngine);

        TestTenants.Cli validate =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());

        // Still valid (the engine answers in the end), but every request will answer the fallback: said, by product.
        assertEquals(0, validate.exit(), validate.err());
        String out = validate.out() + validate.err();
        assertTrue(
                out.contains(
                        "warning: products: product 'shop': its start-up probe (an empty and a typed query) did not finish"
                                + " within 2000 ms"),
                out);
        assertFalse(out.contains("warm-up-"), "no made-up name: " + out);
    }

    @Test
    void a_jar_built_for_a_newer_spi_or_a_newer_java_is_told_what_to_do_about_it() throws Exception {
        Path tenant = tenant();
        EngineJarFiles.withSpiVersion(
                faultyJar(), Integer.toString(SpiVersion.MAJOR + 1), tenant.resolve("engines/new.jar"));
        String newerSpi = problems(tenant);
        assertTrue(
                newerSpi.contains("run a server that speaks version " + (SpiVersion.MAJOR + 1) + ", or rebuild"),
                newerSpi);

        Files.delete(tenant.resolve("engines/new.jar"));
        Path jar = EngineJarFiles.forNextJava(faultyJar(), tenant.resolve("engines/next.jar"));
        String newerJava = problems(tenant);
        assertTrue(newerJava.contains("compiled for a newer Java than this server runs"), newerJava);
        assertFalse(newerJava.contains("another engine SPI version"), newerJava);
        assertTrue(newerJava.startsWith("[" + jar + ":"), "the JAR, not its directory: " + newerJava);
    }

    @Test
    void each_load_reads_a_private_copy_that_closing_deletes() throws Exception {
        Path tenant = tenant();
        Path jar = EngineJarFiles.withEntry(
                probeJar(), EngineJarFiles.PROBE_BUILD, "first", tenant.resolve("engines/probe.jar"));
        EngineJars.Found found = new EngineJars().find(tenant, "shop");
        assertEquals(List.of(), found.problems());
        assertEquals("probe.jar", found.origins().get("library-probe"));
        assertEquals(EngineJars.BUILT_IN, found.origins().get("date"));
        URL resource = found.contextLoader().getResource(EngineJarFiles.PROBE_BUILD);
        assertNotNull(resource);
        assertFalse(resource.toString().contains(tenant.toString()), "loaded from the tenant's own file: " + resource);

        EngineJarFiles.withEntry(probeJar(), EngineJarFiles.PROBE_BUILD, "second", jar);
        try (InputStream in = found.contextLoader().getResourceAsStream(EngineJarFiles.PROBE_BUILD)) {
            assertEquals(
                    "first",
                    new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    "a load keeps reading the JAR it was loaded from");
        }
        Path copy = Path.of(java.net.URI.create(
                resource.toString().substring(4, resource.toString().indexOf("!/"))));
        assertTrue(Files.exists(copy));

        found.close();

        assertFalse(Files.exists(copy.getParent()), "the copies are deleted with the load");
    }
}
