package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.engines.BudgetSpent;
import dev.autocomplete.server.engines.EngineCalls;
import dev.autocomplete.server.engines.EngineOutcome;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.reading.QueryReader;
import dev.autocomplete.server.reading.Reading;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link EngineRunner} running the reader over a real tenant: what a reading gives, and what its faults cost. */
class EngineRunnerTest {

    @TempDir
    Path temp;

    private TenantRegistry registry;
    private EngineRunner runner;

    @BeforeEach
    void load() {
        registry = Kitchen.load(temp);
        runner = new EngineRunner();
    }

    @AfterEach
    void close() {
        registry.close();
    }

    private EngineRunner.Result<Reading> read(String text) {
        Product product = Kitchen.product(registry);
        return runner.run(
                "kitchen",
                product.limits().budget(),
                (calls, deadline) -> QueryReader.read(
                        product.model(), Kitchen.query(text), product.enginesByType(), calls, deadline, Map.of()));
    }

    @Test
    void a_reading_in_time_gives_the_reading_and_says_ok_with_its_time() {
        EngineRunner.Result<Reading> result = read("Eat ba");

        assertFalse(result.failed());
        assertEquals(EngineOutcome.OK, result.outcome());
        assertTrue(result.calls().byEngine().get("faulty").calls() > 0);
        assertTrue(result.engineNanos() > 0);
    }

    @Test
    void an_engine_that_throws_costs_its_params_only_and_is_reported_as_an_error() {
        EngineRunner.Result<Reading> result = read("Eat throw");

        assertFalse(result.failed(), "the reading goes on without the engine's answer");
        EngineCalls.Tally faulty = result.calls().byEngine().get("faulty");
        assertTrue(faulty.threw() > 0 && faulty.threw() == faulty.failures());
        assertEquals(0, result.calls().byEngine().get("catalogs").failures());
        assertEquals(EngineOutcome.ERROR, result.outcome(), "reported as an error of the engine");
    }

    @Test
    void a_reading_past_the_budget_fails_within_about_the_budget_and_blames_the_engine_it_waited_for() {
        long start = System.nanoTime();
        EngineRunner.Result<Reading> result = read("Eat hang");
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(result.failed());
        assertNull(result.value());
        assertEquals(EngineOutcome.TIMEOUT, result.outcome());
        assertTrue(millis >= Kitchen.BUDGET_MILLIS && millis < 2_000, "waited " + millis + " ms, not the engine's 3 s");
    }

    @Test
    void work_that_finds_its_budget_spent_is_a_timeout_on_the_callers_thread_and_on_its_own() {
        EngineRunner.Work<String> late = (calls, deadline) -> {
            while (System.nanoTime() - deadline <= 0) {
                Thread.onSpinWait();
            }
            BudgetSpent.check(deadline); // as the reader does before each question to an engine
            return "read";
        };
        EngineRunner.Result<String> here = runner.runHere("here", Duration.ofMillis(20), late);
        assertEquals(EngineOutcome.TIMEOUT, here.outcome());
        assertNull(here.value());
        assertEquals(
                EngineOutcome.TIMEOUT,
                runner.run("own", Duration.ofMillis(20), late).outcome());
        assertEquals(
                "read",
                runner.runHere("in time", Duration.ofSeconds(5), (calls, deadline) -> {
                            BudgetSpent.check(deadline);
                            return "read";
                        })
                        .value());
    }
}
