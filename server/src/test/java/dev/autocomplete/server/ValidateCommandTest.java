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
        TestTenants.Cli result = TestTenants.cli("validate", "--tenants", TestTenants.repoRoot().resolve("tenants")
                .toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("ok:"), result.out());
    }

    @Test
    void prints_each_problem_as_file_line_message_and_exits_non_zero() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path shop = Files.createDirectories(tenants.resolve("shop"));
        Files.writeString(shop.resolve("tenant.yaml"), """
                display_name: Shop
                colour: blue
                products:
                  - id: not-a-uuid
                    slug: Store
                    engine: catalog
                  - id: 4c6d8e0f-3a5b-4c7d-9e1f-2a3b4c5d6e7f
                    slug: store
                    engine: catalog
                    config:
                      intents:
                        - name: buy
                          phrases: [Buy]
                          params:
                            - type: item
                              required: yes-please
                              options: [Shoes]
                """);
        Path yamlError = Files.createDirectories(tenants.resolve("typo"));
        Files.writeString(yamlError.resolve("tenant.yaml"), "products: [\n  - id: x\n    slug: : :\n");

        TestTenants.Cli result = TestTenants.cli("validate", "--tenants", tenants.toString());
        assertEquals(1, result.exit());
        String err = result.err();
        String file = shop.resolve("tenant.yaml").toString();
        assertTrue(err.contains(file + ":2: colour: is not a known key"), err);
        assertTrue(err.contains(file + ":4: products[0].id: must be a UUID"), err);
        assertTrue(err.contains(file + ":5: products[0].slug: must be lower-case"), err);
        assertTrue(err.contains(file + ":16: products[1].config.intents[0].params[0].required: must be true or false"),
                err);
        assertTrue(err.contains(yamlError.resolve("tenant.yaml") + ":"), err);
        assertTrue(err.contains("not valid YAML"), err);
    }
}
