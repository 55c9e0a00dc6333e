package dev.autocomplete.server.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Who is blamed when a request's budget runs out: the engine that took the time, not the one left running. */
class EngineCallsTest {

    /** An engine of one type whose options take {@code pause} and, when {@code entered} is given, wait for it. */
    private static Engine engine(String type, Duration pause, CountDownLatch entered, CountDownLatch release) {
        return new Engine() {
            @Override
            public Set<String> paramTypes() {
                return Set.of(type);
            }

            @Override
            public List<SpanMatch> match(Ask ask, List<String> spans) {
                return spans.stream().map(span -> SpanMatch.NONE).toList();
            }

            @Override
            public List<Option> options(Ask ask, String typed) {
                if (entered != null) {
                    entered.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return List.of(Option.of("One"));
            }
        };
    }

    private static GuardedEngine guard(String name, Engine engine) {
        return new GuardedEngine(
                "acme",
                "shop",
                name,
                engine,
                EngineCallsTest.class.getClassLoader(),
                1000,
                Duration.ofMinutes(1),
                false,
                null);
    }

    private static Ask ask(String type) {
        return new Ask(
                type,
                List.of("en"),
                AdditionalContext.NONE,
                Map.of(),
                LocalDate.of(2026, 3, 12),
                10,
                System.nanoTime() + 1_000_000_000L);
    }

    @Test
    void a_timeout_is_blamed_on_the_engine_that_took_most_of_the_budget_not_on_the_one_left_running() throws Exception {
        GuardedEngine plugin = guard("repos", engine("repo", Duration.ofMillis(300), null, null));
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GuardedEngine catalogs = guard("catalogs", engine("size", Duration.ZERO, entered, release));
        EngineCalls calls = new EngineCalls();

        // One reading: the plug-in answers slowly, then the catalogs are asked and are still answering when the
        // budget runs out.
        Thread reading = Thread.ofVirtual().start(() -> {
            plugin.options(ask("repo"), "", calls);
            catalogs.options(ask("size"), "", calls);
        });
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        GuardedEngine blamed = calls.blame(System.nanoTime());
        release.countDown();
        reading.join();

        assertEquals("repos", blamed.name());
        List<EngineCalls.Use> uses = calls.summary().uses();
        assertEquals(
                List.of("repos", "catalogs"),
                uses.stream().map(EngineCalls.Use::engine).toList());
        assertEquals(EngineOutcome.TIMEOUT, uses.get(0).outcome());
        assertEquals(EngineOutcome.OK, uses.get(1).outcome());
        assertTrue(uses.get(0).nanos() >= 300_000_000L, uses.toString());
        assertTrue(uses.get(1).nanos() < uses.get(0).nanos(), uses.toString());
    }

    @Test
    void the_engine_still_in_its_first_call_is_blamed_with_its_time_so_far() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GuardedEngine hung = guard("faulty", engine("thing", Duration.ZERO, entered, release));
        EngineCalls calls = new EngineCalls();
        assertNull(calls.blame(System.nanoTime()), "no engine asked, none blamed");

        Thread reading = Thread.ofVirtual().start(() -> hung.options(ask("thing"), "", calls));
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        Thread.sleep(50);
        GuardedEngine blamed = calls.blame(System.nanoTime());
        release.countDown();
        reading.join();

        assertEquals("faulty", blamed.name());
        EngineCalls.Use use = calls.summary().uses().getFirst();
        assertEquals(EngineOutcome.TIMEOUT, use.outcome());
        assertTrue(use.nanos() >= 50_000_000L, use.toString());
        assertEquals(
                1,
                calls.summary().uses().size(),
                "the uses stay as they were when the budget ran out: "
                        + calls.summary().uses());
    }
}
