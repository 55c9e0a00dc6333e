package com.example.repos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.autocomplete.testkit.Answer;
import dev.autocomplete.testkit.EngineTestKit;
import dev.autocomplete.testkit.ProductClient;

/**
 * The example tenant read by the server's own reader, in process: the repos engine (found on the class path through
 * its META-INF/services file) serves the repo and branch params, the built-in catalog the reviewer param.
 */
class ReposJourneyTest {

    private static final EngineTestKit KIT = EngineTestKit.tenant(Path.of("tenant"));
    private static final ProductClient REVIEW = KIT.product("review");

    @TempDir
    Path temp;

    @AfterAll
    static void close() {
        KIT.close();
    }

    @Test
    void a_review_is_ready_once_repo_branch_and_reviewer_are_filled() {
        Answer start = REVIEW.suggest("Review roc");
        assertEquals("repo", start.suggestionTypes().getFirst(), start.toString());
        assertEquals(List.of("acme/rocket", "acme/rocket-docs"), start.options("repo"), start.toString());

        ProductClient picked = REVIEW.pick("repo", "acme/rocket");
        Answer branches = picked.suggest("Review {{REPO_1}} ");
        assertEquals(List.of("main", "develop", "release/2.0", "feature/launch-pad"), branches.options("branch"),
                "the branches of the picked repository: " + branches);

        Answer typing = picked.suggest("Review {{REPO_1}} on dev");
        assertEquals(List.of("develop"), typing.options("branch"), typing.toString());

        ProductClient both = picked.pick("branch", "develop");
        Answer reviewer = both.suggest("Review {{REPO_1}} on {{BRANCH_1}} with Gra");
        assertEquals("Grace Hopper", reviewer.options("reviewer").getFirst(), reviewer.toString());
        assertFalse(reviewer.isReady(), reviewer.toString());

        Answer ready = both.suggest("Review {{REPO_1}} on {{BRANCH_1}} with Grace Hopper");
        assertTrue(ready.isReady(), ready.toString());
        assertEquals("completed", ready.identified("reviewer").getFirst().state(), ready.toString());
    }

    @Test
    void the_branches_offered_after_a_typed_repository_are_that_repositorys() {
        Answer billing = REVIEW.suggest("Review globex/billing on inv");
        assertEquals(List.of("invoice-pdf"), billing.options("branch"), billing.toString());
        Answer rocket = REVIEW.suggest("Review acme/rocket on inv");
        assertEquals(List.of(), rocket.options("branch"), "acme/rocket has no such branch: " + rocket);

        Answer ready = REVIEW.suggest("Review globex/billing on invoice-pdf with Ada Lovelace");
        assertTrue(ready.isReady(), ready.toString());
    }

    @Test
    void a_name_two_repositories_share_needs_confirmation_and_is_not_ready() {
        Answer answer = REVIEW.pick("branch", "main").suggest("Review api on {{BRANCH_1}} with Ada Lovelace");
        assertFalse(answer.isReady(), answer.toString());
        assertEquals("need_confirmation", answer.identified("repo").getFirst().state(), answer.toString());
    }

    @Test
    void a_branch_param_without_its_repository_param_is_a_tenant_error_on_its_line() throws IOException {
        Path broken = Files.createDirectories(temp.resolve("broken"));
        Files.writeString(broken.resolve("tenant.yaml"), """
                products:
                  - id: 9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e20
                    slug: branches
                    intents:
                      - name: checkout
                        phrases: [Checkout]
                        params:
                          - type: branch
                            engine: repos
                            list: branches
                """);
        try (EngineTestKit kit = EngineTestKit.tenant(broken)) {
            List<String> problems = kit.problems();
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.getFirst().contains("tenant.yaml:8:"), problems.toString());
            assertTrue(problems.getFirst().contains("repository"), problems.toString());
        }
    }
}
