package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example engine of {@code examples/engine-repos}, built outside this build against the installed SPI, loaded
 * from a tenant's {@code engines/} through the tenant's own class loader, serves its repo and branch params next to
 * the built-in catalog over HTTP. It needs that JAR, which {@code .ci/run} builds and names with
 * {@code -Dautocomplete.test.exampleEngineJar=...}; without it the test is skipped.
 */
class ExampleEngineTest {

    static final String JAR_PROPERTY = "autocomplete.test.exampleEngineJar";

    @TempDir
    Path temp;

    @Test
    void the_example_engine_jar_in_a_tenants_engines_serves_a_review_to_is_ready_over_http() throws Exception {
        String jar = System.getProperty(JAR_PROPERTY, "");
        assumeTrue(
                !jar.isBlank(),
                "skipped: build the example (mvn -B install -DskipTests; mvn -B verify -f"
                        + " examples/engine-repos/pom.xml) and set -D" + JAR_PROPERTY + "=<absolute path of"
                        + " examples/engine-repos/target/engine-repos.jar>, as .ci/run does");
        assertTrue(Files.isRegularFile(Path.of(jar)), JAR_PROPERTY + " names no file: " + jar);
        Path tenants = Files.createDirectories(temp.resolve("tenants"));
        Path review = tenants.resolve("review");
        TestTenants.copyTree(TestTenants.repoRoot().resolve("examples/engine-repos/tenant"), review);
        Files.copy(
                Path.of(jar), Files.createDirectories(review.resolve("engines")).resolve("engine-repos.jar"));
        String key = TestTenants.createKey(tenants, "review", "public", "review");

        try (AutocompleteServer server = TestServers.start(tenants)) {
            assertEquals(List.of(), server.tenants().problems());
            ApiClient api = new ApiClient(server.port());

            ApiClient.Reply typed = api.suggest(key, envelope("Review roc"));
            assertEquals(200, typed.status(), typed.raw());
            assertEquals(List.of("acme/rocket", "acme/rocket-docs"), typed.options("repo"), typed.raw());

            ObjectNode picked = fill(envelope("Review {{REPO_1}} "), "{{REPO_1}}", "repo", "acme/rocket");
            ApiClient.Reply branches = api.suggest(key, picked);
            assertEquals(
                    List.of("main", "develop", "release/2.0", "feature/launch-pad"),
                    branches.options("branch"),
                    "the branches of the picked repository, from the JAR's bundled file: " + branches.raw());
            assertFalse(branches.data().path("is_ready").asBoolean(), branches.raw());

            ObjectNode both = fill(
                    fill(
                            envelope("Review {{REPO_1}} on {{BRANCH_1}} with Grace Hopper"),
                            "{{REPO_1}}",
                            "repo",
                            "acme/rocket"),
                    "{{BRANCH_1}}",
                    "branch",
                    "develop");
            ApiClient.Reply ready = api.suggest(key, both);
            assertEquals(200, ready.status(), ready.raw());
            assertTrue(ready.data().path("is_ready").asBoolean(), ready.raw());
        }
    }
}
