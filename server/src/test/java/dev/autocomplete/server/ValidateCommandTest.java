package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate} through the real command line. */
class ValidateCommandTest {

    @TempDir
    Path temp;

    @Test
    void the_bundled_tenants_are_valid() {
        TestTenants.Cli result = TestTenants.cli(
                "validate",
                "--tenants",
                TestTenants.repoRoot().resolve("tenants").toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("ok:"), result.out());
        assertTrue(result.err().isEmpty(), "no warning either: " + result.err());
    }

    @Test
    void a_context_key_path_with_an_empty_name_is_a_problem_of_its_own() throws Exception {
        Path file = writeShop("""
                display_name: Shop
                products:
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: desk
                    intents:
                      - name: assign
                        phrases: [Assign to]
                        params:
                          - type: queue
                            options: [{text: Billing, attributes: {floor: "2"}}]
                            context_attributes:
                              floor: {from: "."}
                          - type: agent
                            options: [{text: Ana Lima, attributes: {team: Billing}}]
                            context_attributes:
                              team: {from: "user..team"}
                """);
        TestTenants.Cli result = TestTenants.cli(
                "validate", "--tenants", file.getParent().getParent().toString());
        assertEquals(1, result.exit(), result.err());
        String err = result.err();
        assertTrue(err.contains("context_attributes.floor: from must name a context key"), err);
        assertTrue(err.contains("params[1].context_attributes.team: from must name a context key"), err);
        assertTrue(!err.contains("failed to load"), err);
    }

    @Test
    void a_context_attribute_no_option_carries_is_a_warning_that_fails_nothing() throws Exception {
        Path file = writeShop("""
                display_name: Shop
                catalogs:
                  agents: {file: data/agents.csv}
                products:
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: desk
                    intents:
                      - name: assign
                        phrases: [Assign to]
                        params:
                          - type: agent
                            catalog: agents
                            context_attributes:
                              teem: {from: team, mode: boost}
                              team: boost
                          - type: queue
                            options: [{text: Billing, attributes: {floor: "2"}}, {text: Sales}]
                            context_attributes: {region: filter}
                """);
        Files.createDirectories(file.resolveSibling("data"));
        Files.writeString(file.resolveSibling("data/agents.csv"), "text,attr.team\nAna Lima,Billing\nBo Chen,Sales\n");

        TestTenants.Cli result = TestTenants.cli(
                "validate", "--tenants", file.getParent().getParent().toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("ok: 2 tenant(s)") && result.out().contains("2 warning(s)"), result.out());
        String err = result.err();
        assertTrue(
                err.contains(file + ":14: warning: products[0].intents[0].params[0].context_attributes.teem: no option"
                        + " of catalog 'agents' has the attribute 'teem' (they have: team)"),
                err);
        assertTrue(
                err.contains(file + ":18: warning: products[0].intents[0].params[1].context_attributes.region: no"
                        + " option of its inline list has the attribute 'region' (they have: floor), so it never boosts"
                        + " or filters: a typo?"),
                err);
        assertEquals(2, err.lines().count(), "the attribute the options carry is no warning: " + err);
    }

    @Test
    void settings_for_an_engine_no_engine_has_are_a_problem_with_the_name_meant() throws Exception {
        Path file = writeShop("""
                display_name: Shop
                engines:
                  dat: {default_days: 3}
                  nosuch: {x: 1}
                products:
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: store
                    intents:
                      - name: buy
                        phrases: [Buy]
                        params:
                          - type: item
                            options: [Shoes]
                """);

        TestTenants.Cli result = TestTenants.cli(
                "validate", "--tenants", file.getParent().getParent().toString());

        assertEquals(1, result.exit(), result.err());
        assertTrue(
                result.err().contains(file + ":3: engines.dat: is not a known key; did you mean 'date'?"),
                result.err());
        assertTrue(result.err().contains(file + ":4: engines.nosuch: is not a known key (known: date)"), result.err());
    }

    @Test
    void prints_every_problem_of_a_tenant_as_file_line_message_and_exits_non_zero() throws Exception {
        // Problems in both products, in the reader's keys and in what the catalog engine reads (a missing file
        // of a catalog both bad products name): each must show, not only the first.
        Path file = writeShop("""
                display_name: Shop
                colour: blue
                catalogs:
                  shoes: {file: data/shoes.csv}
                products:
                  - id: not-a-uuid
                    slug: Store
                    intents:
                      - name: buy
                        phrases: [Buy]
                        params:
                          - type: item
                            required: yes-please
                            options: [Shoes]
                          - type: brand
                            catalog: shoes
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: store
                    intents:
                      - name: buy
                        phrases: [Buy]
                        params:
                          - type: item
                            catalog: shoes
                          - type: size!
                            options: [Small, Large]
                """);
        Path yamlError = Files.createDirectories(file.getParent().resolveSibling("typo"));
        Files.writeString(yamlError.resolve("tenant.yaml"), "products: [\n  - id: x\n    slug: : :\n");

        TestTenants.Cli result = TestTenants.cli(
                "validate", "--tenants", file.getParent().getParent().toString());
        assertEquals(1, result.exit());
        String err = result.err();
        assertTrue(err.contains(file + ":2: colour: is not a known key"), err);
        assertTrue(err.contains(file + ":4: catalogs.shoes.file: not found: data/shoes.csv"), err);
        assertEquals(
                err.indexOf("not found: data/shoes.csv"),
                err.lastIndexOf("not found: data/shoes.csv"),
                "a problem met by two products is printed once: " + err);
        assertTrue(err.contains(file + ":6: products[0].id: must be a UUID"), err);
        assertTrue(err.contains(file + ":7: products[0].slug: must be lower-case"), err);
        assertTrue(err.contains(file + ":13: products[0].intents[0].params[0].required: must be true or false"), err);
        assertTrue(err.contains(file + ":25: products[1].intents[0].params[1].type: must be letters, digits"), err);
        assertTrue(err.contains(yamlError.resolve("tenant.yaml") + ":2: not valid YAML: "), err);
        assertTrue(err.contains("7 problem(s)"), err);
        for (String line : err.lines().toList()) {
            assertTrue(
                    line.matches(".+/tenant\\.yaml:\\d+: .+|\\d+ problem\\(s\\)"), "not file:line: message: " + line);
        }
    }

    @Test
    void a_tenant_yaml_in_the_old_format_is_refused_with_what_changed_and_how_to_write_it_now() throws Exception {
        Path file = writeShop("""
                display_name: Shop
                products:
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: store
                    engine: catalog
                    config:
                      prompt: Buy
                      intents:
                        - name: buy
                          phrases: [Buy]
                          params:
                            - type: item
                              options: [Shoes]
                """);

        TestTenants.Cli result = TestTenants.cli(
                "validate", "--tenants", file.getParent().getParent().toString());
        assertEquals(1, result.exit());
        String err = result.err();
        assertTrue(err.contains(file + ":6: products[0].config: tenant.yaml's format changed"), err);
        assertTrue(err.contains("Move 'prompt' and 'intents' up into the product"), err);
        assertTrue(err.contains("the 'catalogs' map to the top of tenant.yaml"), err);
        assertTrue(err.contains("See docs/configuration.md"), err);
        assertTrue(err.contains("1 problem(s)"), err);
    }

    /** Writes {@code tenants/shop/tenant.yaml} beside a copy of the demo tenant; returns its path. */
    private Path writeShop(String yaml) throws Exception {
        Path shop = Files.createDirectories(TestTenants.copyOfDemo(temp).resolve("shop"));
        return Files.writeString(shop.resolve("tenant.yaml"), yaml);
    }
}
