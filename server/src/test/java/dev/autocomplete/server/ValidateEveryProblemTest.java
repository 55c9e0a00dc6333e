package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.SpiVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate} through the real command line prints every problem of a tenant, each as
 * {@code file:line: message}, rather than the first one of a tenant, a product or an intent.
 */
class ValidateEveryProblemTest {

    @TempDir
    Path temp;

    @Test
    void every_problem_of_a_tenant_is_printed_with_its_file_and_line() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path shop = Files.createDirectories(tenants.resolve("shop"));
        Files.writeString(shop.resolve("tenant.yaml"), """
                display_name: [Shop, Store]
                colour: blue
                log_queries: sometimes
                access_tokens:
                  lifetime: 2 weeks
                  rate: fast
                  ttl: 5m
                engines: [date]
                products:
                  - id: 1-2-3-4-5
                    slug: Store
                    max_options: 500
                    time_zone: Mars/Olympus
                    engine_budget_ms: 0
                    fallback: {prompt: "", hints: [ok, ""], tone: calm}
                    circuit: {failures: none, open_seconds: 0, half: open}
                    shelf: top
                    intents:
                      - name: buy
                        phrases: [Buy]
                        colour: red
                        params:
                          - type: item
                            required: yes-please
                            context_options: maybe
                            options: [Shoes]
                          - type: bad/type
                            cues: {en: {a: b}}
                      - phrases: [Sell]
                        params: []
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: store
                    prompt: Buy
                    intents:
                      - name: buy
                        phrases: [Buy]
                        params:
                          - type: item
                            engine: nonesuch
                          - type: size
                            options: [Small, {text: Large}]
                """);
        // One list problem per product is said: the other order in a product of its own.
        Path paint = Files.createDirectories(tenants.resolve("paint"));
        Files.writeString(paint.resolve("tenant.yaml"), """
                display_name: Paint
                products:
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e70
                    slug: paint
                    intents:
                      - name: paint
                        phrases: [Paint]
                        params:
                          - type: colour
                            options: [{text: Red}, Blue]
                """);

        TestTenants.Cli result = TestTenants.cli("validate", "--tenants", tenants.toString());

        assertEquals(1, result.exit(), result.out());
        String file = shop.resolve("tenant.yaml").toString();
        List<String> expected = List.of(
                ":1: display_name: must be a single value, not a list",
                ":2: colour: is not a known key (known: ",
                ":3: log_queries: must be true or false",
                ":5: access_tokens.lifetime: '2 weeks' is not a duration",
                ":6: access_tokens.rate: rate and burst must be whole numbers",
                ":7: access_tokens.ttl: is not a known key",
                ":8: engines: must be a map",
                ":10: products[0].id: must be a UUID",
                ":11: products[0].slug: must be lower-case letters",
                ":12: products[0].max_options: must be a whole number from 1 to 50",
                ":13: products[0].time_zone: must be a time zone",
                ":14: products[0].engine_budget_ms: must be a whole number from 1 to 10000",
                ":15: products[0].fallback.tone: is not a known key",
                ":15: products[0].fallback.prompt: must be a non-empty string",
                ":15: products[0].fallback.hints: must be a list of non-empty strings",
                ":16: products[0].circuit.half: is not a known key",
                ":16: products[0].circuit.failures: must be a whole number from 1 to 1000000",
                ":16: products[0].circuit.open_seconds: must be a whole number from 1 to 86400",
                ":17: products[0].shelf: is not a known key (known: ",
                ":21: products[0].intents[0].colour: is not a known key",
                ":24: products[0].intents[0].params[0].required: must be true or false",
                ":25: products[0].intents[0].params[0].context_options: must be true or false",
                ":27: products[0].intents[0].params[1].type: must be letters, digits, '_' and single spaces",
                ":28: products[0].intents[0].params[1].cues.en: must be a single value, not a map",
                ":29: products[0].intents[1].name: is required",
                ":30: products[0].intents[1].params: needs at least one param",
                ":39: products[1].intents[0].params[0].engine: names no engine 'nonesuch'; available: catalog, date (the"
                        + " built-in engines and those of the JARs in " + shop.resolve("engines") + ")",
                ":41: products[1].intents[0].params[1].options[1]: is a map in a list of texts: give every option");
        for (String problem : expected) {
            assertTrue(result.err().contains(file + problem), "missing '" + problem + "' in:\n" + result.err());
        }
        String reversed = paint.resolve("tenant.yaml") + ":10: products[0].intents[0].params[0].options[1]: is a text"
                + " in a list of maps: give every option of the list as a text, or every one as a map {text: ...,"
                + " weight: ...}";
        assertTrue(result.err().contains(reversed), "missing '" + reversed + "' in:\n" + result.err());
        assertTrue(result.err().contains(expected.size() + 1 + " problem(s)"), result.err());
    }

    @Test
    void nested_misspelt_and_cascading_mistakes_are_each_printed_once_with_the_key_meant() throws Exception {
        Path shop =
                Files.createDirectories(temp.resolve("tenants/shop/engines")).getParent();
        // A refused engine JAR (no SPI version in its manifest) that provides the engine 'faulty'.
        EngineJarFiles.withSpiVersion(
                EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar"),
                null,
                shop.resolve("engines/old.jar"));
        Path file = Files.writeString(shop.resolve("tenant.yaml"), """
                display_name: Shop
                default_product: store
                catalogs:
                  sizes: {fil: data/sizes.csv}
                engines:
                  date: {default_dayz: 3}
                products:
                  - id: not-a-uuid
                    slug: store
                    prompt: {}
                    intents:
                      - name: buy
                        phrasess: [Buy]
                        params:
                          - type: item
                            cuess: [for]
                            catalog: sizes
                          - type: colour
                            required: yes-please
                            optons: [Red]
                          - typ: when
                            engine: date
                          - type: day
                            when: {colour: red}
                            engine: date
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: other
                    max_option: 5
                    intents:
                      - name: sell
                        phrases: [Sell]
                        params:
                          - type: thing
                            engine: faulty
                          - type: size
                            cue: [in]
                            options: [Small]
                          - type: on
                            engine: dat
                """);

        TestTenants.Cli result =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());

        // Not printed: "default_product: names no product slug" (the product is left out for its own id),
        // "phrases: needs at least one phrase" and "type: is required" (misspelt, said once), "when ... names no
        // earlier param" (colour has problems of its own), "engine: names no engine 'faulty'" (its JAR is refused).
        assertEquals(1, result.exit(), result.err());
        assertEquals(
                List.of(
                        file + ":4: catalogs.sizes.fil: is not a known key; did you mean 'file'?",
                        file + ":6: engines.date.default_dayz: is not a known key; did you mean 'default_days'?",
                        file + ":8: products[0].id: must be a UUID like 3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c90",
                        file + ":10: products[0].prompt: needs at least one language",
                        file + ":13: products[0].intents[0].phrasess: is not a known key; did you mean 'phrases'?",
                        file + ":16: products[0].intents[0].params[0].cuess: is not a known key; did you mean 'cues'?",
                        file + ":19: products[0].intents[0].params[1].required: must be true or false",
                        file
                                + ":20: products[0].intents[0].params[1].optons: is not a known key; did you mean 'options'?",
                        file + ":21: products[0].intents[0].params[2].typ: is not a known key; did you mean 'type'?",
                        file + ":28: products[1].max_option: is not a known key; did you mean 'max_options'?",
                        file + ":36: products[1].intents[0].params[1].cue: is not a known key; did you mean 'cues'?",
                        file
                                + ":39: products[1].intents[0].params[2].engine: names no engine 'dat'; did you mean 'date'?",
                        shop.resolve("engines/old.jar")
                                + ":1: old.jar does not say which engine SPI version it was built"
                                + " for (no Autocomplete-Engine-SPI in its manifest); this server speaks engine SPI version "
                                + SpiVersion.MAJOR + "; rebuild the engine against engine-spi " + SpiVersion.MAJOR
                                + ".x with the manifest attribute Autocomplete-Engine-SPI: " + SpiVersion.MAJOR
                                + " (see docs/engine-guide.md, \"SPI version\")",
                        "13 problem(s)"),
                result.err().lines().toList());
    }

    @Test
    void a_param_naming_no_catalog_hides_no_problem_of_the_next_params_list() throws Exception {
        Path shop = Files.createDirectories(temp.resolve("tenants/mail"));
        Files.writeString(shop.resolve("tenant.yaml"), """
                catalogs:
                  people: {file: people.csv}
                products:
                  - id: 11111111-2222-4333-8444-555555555556
                    slug: mail
                    intents:
                      - name: send
                        phrases: [Send to]
                        params:
                          - type: recipient
                            catalog: peple
                          - type: topic
                            options: [{text: A, weight: 1}, B]
                """);
        Files.writeString(shop.resolve("people.csv"), "text\nAnn\nBen\n");

        TestTenants.Cli validate =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());

        assertEquals(1, validate.exit(), validate.err());
        String err = validate.err();
        assertTrue(err.contains(":11: products[0].intents[0].params[0].catalog: names no catalog"), err);
        assertTrue(err.contains(":13: products[0].intents[0].params[1].options[1]: is a text in a list of maps"), err);
        assertTrue(err.contains("2 problem(s)"), err);
    }

    @Test
    void a_key_an_engine_does_not_read_is_refused_even_when_the_engine_checks_none_itself() throws Exception {
        Path shop =
                Files.createDirectories(temp.resolve("tenants/shop/engines")).getParent();
        // The library probe reads 'values' on each param and nothing else, and never calls allowOnly.
        Files.copy(EngineIsolationTest.engineJar("autocomplete.test.libAEngineJar"), shop.resolve("engines/probe.jar"));
        Path file = Files.writeString(shop.resolve("tenant.yaml"), """
                display_name: Shop
                engines:
                  library-probe: {colour: red}
                products:
                  - id: 5d6e7f80-1a2b-4c3d-8e9f-0a1b2c3d4e5f
                    slug: store
                    prompt: Buy
                    intents:
                      - name: buy
                        phrases: [Buy]
                        params:
                          - type: first
                            engine: library-probe
                            requird: true
                            values: a,b
                          - type: second
                            engine: library-probe
                            vales: c,d
                """);

        TestTenants.Cli result =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());

        assertEquals(1, result.exit(), result.err());
        assertEquals(
                List.of(
                        file + ":3: engines.library-probe.colour: is not a known key (no key is read here) (engine"
                                + " 'library-probe' did not read it)",
                        file + ":14: products[0].intents[0].params[0].requird: is not a known key; did you mean"
                                + " 'required'? (engine 'library-probe' did not read it)",
                        file + ":18: products[0].intents[0].params[1].vales: is not a known key; did you mean"
                                + " 'values'? (engine 'library-probe' did not read it)",
                        "3 problem(s)"),
                result.err().lines().toList());

        // Without the mistakes, the same tenant is valid: reading 'values' (or a default) is reading it.
        Files.writeString(
                file,
                Files.readString(file)
                        .replace("  library-probe: {colour: red}\n", "  {}\n")
                        .replace("requird", "required")
                        .replace("vales", "values"));
        TestTenants.Cli fixed =
                TestTenants.cli("validate", "--tenants", temp.resolve("tenants").toString());
        assertEquals(0, fixed.exit(), fixed.err());
    }

    /** A product whose two intents share the param type {@code person}, each {@code required: true}. */
    private static final String SHARED_PARAM = """
            display_name: Desk
            products:
              - id: 6e7f8091-2b3c-4d4e-9f0a-1b2c3d4e5f60
                slug: desk
                intents:
                  - name: assign
                    phrases: [Assign to]
                    params:
                      - type: person
                        required: true
                        options: [Ann, Bob]
                  - name: ask
                    phrases: [Ask]
                    params:
                      - type: person
                        required: true
                        options: [Ann, Bob]
            """;

    /** {@code catalog:} for {@code catalogs:} is one mistake: the params naming a catalog say nothing more. */
    @Test
    void a_misspelt_catalogs_key_is_said_once_without_a_line_per_param_naming_a_catalog() throws Exception {
        Path shop = Files.createDirectories(temp.resolve("misspelt/shop/data"));
        Files.writeString(shop.resolve("colors.csv"), "text\nRed\nBlue\n");
        Path file = Files.writeString(
                shop.getParent().resolve("tenant.yaml"),
                TestTenants.paintShop("  colors: {file: data/colors.csv}\n").replace("catalogs:", "catalog:"));

        TestTenants.Cli result = TestTenants.cli(
                "validate", "--tenants", temp.resolve("misspelt").toString());

        assertEquals(1, result.exit(), result.err());
        assertEquals(
                List.of(file + ":2: catalog: is not a known key; did you mean 'catalogs'?", "1 problem(s)"),
                result.err().lines().toList());
    }

    @Test
    void a_misspelt_key_of_a_param_whose_type_another_intent_shares_is_said_once() throws Exception {
        for (int intent = 0; intent < 2; intent++) {
            Path desk = Files.createDirectories(temp.resolve("tenants" + intent + "/desk"));
            int line = intent == 0 ? 10 : 16;
            List<String> lines = new java.util.ArrayList<>(SHARED_PARAM.lines().toList());
            lines.set(line - 1, lines.get(line - 1).replace("required", "requird"));
            Path file = Files.writeString(desk.resolve("tenant.yaml"), String.join("\n", lines) + "\n");

            TestTenants.Cli result =
                    TestTenants.cli("validate", "--tenants", desk.getParent().toString());

            assertEquals(1, result.exit(), result.err());
            assertEquals(
                    List.of(
                            file + ":" + line + ": products[0].intents[" + intent + "].params[0].requird: is not a"
                                    + " known key; did you mean 'required'?",
                            "1 problem(s)"),
                    result.err().lines().toList());
        }
        // A real difference between the two declarations is still one.
        Path desk = Files.createDirectories(temp.resolve("tenants/desk"));
        Path file = Files.writeString(desk.resolve("tenant.yaml"), SHARED_PARAM.replace("[Ann, Bob]\n  ", "[Ann]\n  "));
        TestTenants.Cli result =
                TestTenants.cli("validate", "--tenants", desk.getParent().toString());
        assertEquals(
                List.of(
                        file + ":15: products[0].intents[1].params[0].type: 'person' is declared in another intent"
                                + " with another 'options'; a type has one source in a product: declare it alike in"
                                + " every intent",
                        "1 problem(s)"),
                result.err().lines().toList());
        // And 'required' differing, a key the core reads, is no difference of source.
        Files.writeString(file, SHARED_PARAM.replaceFirst("required: true", "required: false"));
        assertEquals(
                0,
                TestTenants.cli("validate", "--tenants", desk.getParent().toString())
                        .exit());
    }
}
