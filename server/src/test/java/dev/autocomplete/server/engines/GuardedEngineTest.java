package dev.autocomplete.server.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GuardedEngineTest {

    private static final ClassLoader TENANT_LOADER =
            new URLClassLoader("tenant-test", new URL[0], ClassLoader.getPlatformClassLoader());

    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(GuardedEngine.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void captureLog() {
        logger.addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        logger.removeHandler(capture);
    }

    /** An engine for the type {@code date} whose answers the test supplies; counts its calls. */
    private static final class Scripted implements Engine {
        final AtomicInteger calls = new AtomicInteger();
        final List<ClassLoader> contextLoaders = new CopyOnWriteArrayList<>();
        private final BiFunction<Ask, List<String>, List<SpanMatch>> match;
        private final BiFunction<Ask, String, List<Option>> options;
        private final boolean cacheable;

        Scripted(
                BiFunction<Ask, List<String>, List<SpanMatch>> match,
                BiFunction<Ask, String, List<Option>> options,
                boolean cacheable) {
            this.match = match;
            this.options = options;
            this.cacheable = cacheable;
        }

        @Override
        public Set<String> paramTypes() {
            return Set.of("date");
        }

        @Override
        public boolean cacheable() {
            return cacheable;
        }

        @Override
        public List<SpanMatch> match(Ask ask, List<String> spans) {
            calls.incrementAndGet();
            contextLoaders.add(Thread.currentThread().getContextClassLoader());
            return match.apply(ask, spans);
        }

        @Override
        public List<Option> options(Ask ask, String typed) {
            calls.incrementAndGet();
            contextLoaders.add(Thread.currentThread().getContextClassLoader());
            return options.apply(ask, typed);
        }
    }

    private static Scripted throwing() {
        return new Scripted(
                (ask, spans) -> {
                    throw new IllegalStateException("cannot read '" + spans.getFirst() + "'");
                },
                (ask, typed) -> {
                    throw new IllegalStateException("cannot read '" + typed + "'");
                },
                true);
    }

    /** Throws while {@code mode} is 0, then offers Friday. */
    private static Scripted flaky(AtomicInteger mode) {
        return new Scripted(
                (a, s) -> null,
                (a, t) -> {
                    if (mode.get() == 0) {
                        throw new IllegalStateException("down");
                    }
                    return List.of(Option.of("Friday"));
                },
                true);
    }

    private static Scripted working() {
        return new Scripted(
                (ask, spans) ->
                        spans.stream().map(s -> SpanMatch.exact("Friday")).toList(),
                (ask, typed) -> List.of(Option.of("Friday")),
                true);
    }

    private static GuardedEngine guard(
            String name, Engine engine, int circuitFailures, Duration open, boolean logQueries) {
        return new GuardedEngine(
                "acme", "travel", name, engine, TENANT_LOADER, circuitFailures, open, logQueries, null);
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

    private List<String> warnings() {
        return logged.stream()
                .filter(r -> r.getLevel() == Level.WARNING)
                .map(LogRecord::getMessage)
                .toList();
    }

    @Test
    void a_throwing_engine_answers_no_match_and_no_options_and_the_request_counts_the_failures() {
        GuardedEngine engine = guard("date", throwing(), 100, Duration.ofMinutes(1), false);
        EngineCalls calls = new EngineCalls();

        assertEquals(List.of(SpanMatch.NONE, SpanMatch.NONE), engine.match(ask("date"), List.of("on", "fri"), calls));
        assertEquals(List.of(), engine.options(ask("date"), "fri", calls));

        EngineCalls.Tally entry = calls.summary().byEngine().get("date");
        assertEquals(2, entry.calls());
        assertEquals(2, entry.threw());
        assertTrue(entry.nanos() > 0);
        assertFalse(calls.summary().cacheable(), "an answer missing an engine's part must not be cached");
    }

    @Test
    void null_and_wrongly_sized_answers_are_failures_and_read_as_no_match() {
        GuardedEngine nulls =
                guard("date", new Scripted((a, s) -> null, (a, t) -> null, true), 100, Duration.ofMinutes(1), false);
        GuardedEngine short1 = guard(
                "date",
                new Scripted((a, s) -> List.of(SpanMatch.exact("Friday")), (a, t) -> List.of(), true),
                100,
                Duration.ofMinutes(1),
                false);
        EngineCalls calls = new EngineCalls();

        assertEquals(List.of(SpanMatch.NONE), nulls.match(ask("date"), List.of("fri"), calls));
        assertEquals(List.of(), nulls.options(ask("date"), "", calls));
        assertEquals(List.of(SpanMatch.NONE, SpanMatch.NONE), short1.match(ask("date"), List.of("a", "b"), calls));

        assertEquals(3, calls.summary().byEngine().get("date").invalid());
    }

    @Test
    void options_with_control_characters_or_over_200_characters_are_dropped_with_one_warning() {
        List<Option> junk = List.of(
                Option.of("Bell\u0007"),
                Option.of("Line\nbreak"),
                Option.of("x".repeat(201)),
                Option.of("Next\u2028line"),
                Option.of("Fine"),
                Option.of("y".repeat(200)));
        GuardedEngine engine =
                guard("date", new Scripted((a, s) -> null, (a, t) -> junk, true), 100, Duration.ofMinutes(1), false);
        EngineCalls calls = new EngineCalls();

        assertEquals(List.of(Option.of("Fine"), Option.of("y".repeat(200))), engine.options(ask("date"), "", calls));
        engine.options(ask("date"), "", calls);

        assertEquals(
                0, calls.summary().byEngine().get("date").failures(), "dropping junk is not a failure of the call");
        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.getFirst().contains("4 options for type 'date'"), warnings.toString());
        assertTrue(warnings.getFirst().contains("acme/travel"), warnings.toString());
    }

    @Test
    void span_values_that_cannot_be_shown_read_as_no_match() {
        GuardedEngine engine = guard(
                "date",
                new Scripted(
                        (a, s) -> List.of(SpanMatch.exact("Tab\there"), SpanMatch.exact("Friday"), SpanMatch.PREFIX),
                        (a, t) -> List.of(),
                        true),
                100,
                Duration.ofMinutes(1),
                false);

        assertEquals(
                List.of(SpanMatch.NONE, SpanMatch.exact("Friday"), SpanMatch.PREFIX),
                engine.match(ask("date"), List.of("a", "b", "c"), new EngineCalls()));
        assertEquals(1, warnings().size());
    }

    @Test
    void more_than_ten_thousand_options_are_cut() {
        List<Option> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            many.add(Option.of("Option " + i));
        }
        GuardedEngine engine =
                guard("date", new Scripted((a, s) -> null, (a, t) -> many, true), 100, Duration.ofMinutes(1), false);

        List<Option> options = engine.options(ask("date"), "", new EngineCalls());

        assertEquals(GuardedEngine.MAX_OPTIONS, options.size());
        assertEquals("Option 0", options.getFirst().text());
        assertTrue(warnings().getFirst().contains("20000 options"), warnings().toString());
    }

    @Test
    void types_the_engine_does_not_serve_are_never_asked() {
        Scripted scripted = working();
        GuardedEngine engine = guard("date", scripted, 100, Duration.ofMinutes(1), false);
        EngineCalls calls = new EngineCalls();

        assertEquals(List.of(SpanMatch.NONE), engine.match(ask("origin"), List.of("Paris"), calls));
        assertEquals(List.of(), engine.options(ask("origin"), "Par", calls));

        assertEquals(0, scripted.calls.get());
        assertTrue(calls.summary().byEngine().isEmpty());
    }

    @Test
    void engines_run_with_the_tenants_class_loader_as_context_loader() {
        Scripted scripted = working();
        GuardedEngine engine = guard("date", scripted, 100, Duration.ofMinutes(1), false);
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        engine.match(ask("date"), List.of("fri"), new EngineCalls());
        engine.options(ask("date"), "fri", new EngineCalls());

        assertEquals(List.of(TENANT_LOADER, TENANT_LOADER), scripted.contextLoaders);
        assertSame(before, Thread.currentThread().getContextClassLoader());
    }

    @Test
    void repeated_failures_open_the_circuit_of_that_engine_only() {
        Scripted failing = throwing();
        Scripted fine = working();
        GuardedEngine date = guard("date", failing, 3, Duration.ofMinutes(1), false);
        GuardedEngine catalog = guard("catalog", fine, 3, Duration.ofMinutes(1), false);

        for (int i = 0; i < 3; i++) {
            date.options(ask("date"), "fri", new EngineCalls());
        }
        assertEquals("open", date.circuitState());
        EngineCalls calls = new EngineCalls();
        assertEquals(List.of(), date.options(ask("date"), "fri", calls));
        assertEquals(List.of(SpanMatch.NONE), date.match(ask("date"), List.of("fri"), calls));

        assertEquals(3, failing.calls.get(), "an open circuit does not call the engine");
        assertEquals(2, calls.summary().byEngine().get("date").circuitOpen());
        assertEquals(0, calls.summary().byEngine().get("date").calls());
        assertEquals(List.of(Option.of("Friday")), catalog.options(ask("date"), "fri", calls));
        assertEquals("closed", catalog.circuitState());
        assertEquals(0, calls.summary().byEngine().get("catalog").failures());
    }

    @Test
    void after_the_open_period_one_good_call_closes_the_circuit() throws InterruptedException {
        AtomicInteger mode = new AtomicInteger();
        Scripted flaky = flaky(mode);
        GuardedEngine engine = guard("date", flaky, 2, Duration.ofMillis(50), false);
        engine.options(ask("date"), "", new EngineCalls());
        engine.options(ask("date"), "", new EngineCalls());
        assertEquals("open", engine.circuitState());

        mode.set(1);
        Thread.sleep(80);
        assertEquals("half_open", engine.circuitState());
        assertEquals(List.of(Option.of("Friday")), engine.options(ask("date"), "", new EngineCalls()));
        assertEquals("closed", engine.circuitState());
    }

    /** The circuit's changes are logged, one line each, so an operator reading the log sees why params went quiet. */
    @Test
    void the_circuit_logs_one_line_when_it_opens_opens_again_and_closes() throws InterruptedException {
        AtomicInteger mode = new AtomicInteger();
        Scripted flaky = flaky(mode);
        GuardedEngine engine = guard("date", flaky, 2, Duration.ofMillis(50), false);
        for (int i = 0; i < 3; i++) { // the third is refused by the open circuit: no line
            engine.options(ask("date"), "", new EngineCalls());
        }
        Thread.sleep(80);
        engine.options(ask("date"), "", new EngineCalls()); // the trial fails
        mode.set(1);
        Thread.sleep(80);
        engine.options(ask("date"), "", new EngineCalls()); // the trial succeeds
        engine.options(ask("date"), "", new EngineCalls());

        List<LogRecord> circuit = logged.stream()
                .filter(r -> r.getMessage().contains(": circuit "))
                .toList();
        assertEquals(
                List.of(
                        "Engine 'date' of acme/travel: circuit opened after 2 failures in a row; its params offer"
                                + " nothing for 50 ms, then one trial call",
                        "Engine 'date' of acme/travel: circuit opened again, its trial call failed; its params offer"
                                + " nothing for 50 ms, then another trial call",
                        "Engine 'date' of acme/travel: circuit closed, its trial call succeeded"),
                circuit.stream().map(LogRecord::getMessage).toList());
        assertEquals(
                List.of(Level.WARNING, Level.WARNING, Level.INFO),
                circuit.stream().map(LogRecord::getLevel).toList());
    }

    /**
     * An engine of a JAR: its failure, timeout and circuit lines name the JAR's build as the load line gave it, which
     * only the load line did (an engine author's trial), so a line tells which build failed after a JAR was replaced.
     */
    @Test
    void the_lines_of_an_engine_of_a_jar_name_its_build() {
        String build = "engine-date.jar version 1.2.0 (sha256 3f9a0c71be42)";
        GuardedEngine failing = new GuardedEngine(
                "acme", "travel", "date", throwing(), TENANT_LOADER, 2, Duration.ofMinutes(1), false, build);
        failing.options(ask("date"), "", new EngineCalls());
        failing.options(ask("date"), "", new EngineCalls()); // its line held back; the circuit's is not
        GuardedEngine slow = new GuardedEngine(
                "acme", "shop", "date", throwing(), TENANT_LOADER, 5, Duration.ofMinutes(1), false, build);
        slow.timedOut();

        List<String> lines = logged.stream().map(LogRecord::getMessage).toList();
        assertEquals(3, lines.size(), lines.toString());
        String where = "Engine 'date' of acme/travel [" + build + "]";
        assertTrue(lines.get(0).startsWith(where + " failed in options: threw "), lines.toString());
        assertTrue(lines.get(1).startsWith(where + ": circuit opened after 2 failures in a row"), lines.toString());
        assertTrue(
                lines.get(2).startsWith("Engine 'date' of acme/shop [" + build + "] took most of a request's budget"),
                lines.toString());
    }

    @Test
    void an_engines_exception_is_logged_once_per_interval_with_its_class_and_top_frames_but_not_its_message() {
        GuardedEngine engine = guard("date", throwing(), 1000, Duration.ofMinutes(1), false);
        for (int i = 0; i < 50; i++) {
            engine.options(ask("date"), "secret query " + i, new EngineCalls());
        }

        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        String line = warnings.getFirst();
        assertTrue(line.contains("Engine 'date' of acme/travel failed in options"), line);
        assertTrue(line.contains("java.lang.IllegalStateException at "), line);
        assertTrue(line.contains("GuardedEngineTest"), line);
        // The engine's own frames only: the server's call of it (the guard's lambda and call) told its author nothing.
        assertFalse(line.contains("GuardedEngine."), line);
        assertFalse(line.contains("GuardedEngine$"), line);
        assertEquals(1, line.split(" < ", -1).length - 1, line); // the test's lambda, then Scripted.options
        assertFalse(line.contains("secret query"), line);
    }

    @Test
    void held_back_lines_are_counted_in_the_next_one() throws InterruptedException {
        GuardedEngine engine = new GuardedEngine(
                "acme",
                "travel",
                "date",
                throwing(),
                TENANT_LOADER,
                1000,
                Duration.ofMinutes(1),
                false,
                Duration.ofMillis(100),
                GuardedEngine.MAX_TEXT,
                null);
        for (int i = 0; i < 5; i++) {
            engine.options(ask("date"), "x", new EngineCalls());
        }
        Thread.sleep(150);
        engine.options(ask("date"), "x", new EngineCalls());

        List<String> warnings = warnings();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(1).endsWith("(held back since the last line: 4 errors)"), warnings.toString());
    }

    @Test
    void the_message_of_an_engines_exception_is_logged_where_the_tenant_logs_queries() {
        GuardedEngine engine = guard("date", throwing(), 1000, Duration.ofMinutes(1), true);
        engine.options(ask("date"), "next friday", new EngineCalls());

        assertTrue(
                warnings().getFirst().contains("cannot read 'next friday'"),
                warnings().toString());
    }

    @Test
    void an_uncacheable_engine_that_answered_makes_the_request_uncacheable() {
        GuardedEngine live = guard(
                "stock",
                new Scripted((a, s) -> null, (a, t) -> List.of(Option.of("In stock")), false),
                100,
                Duration.ofMinutes(1),
                false);
        GuardedEngine fixed = guard("date", working(), 100, Duration.ofMinutes(1), false);
        EngineCalls cached = new EngineCalls();
        fixed.options(ask("date"), "", cached);
        assertTrue(cached.summary().cacheable());

        EngineCalls mixed = new EngineCalls();
        fixed.options(ask("date"), "", mixed);
        live.options(ask("date"), "", mixed);
        assertTrue(mixed.summary().uncacheable());
        assertFalse(mixed.summary().cacheable());
        assertEquals(
                List.of("date", "stock"), List.copyOf(mixed.summary().byEngine().keySet()));
    }

    @Test
    void an_engine_that_fails_to_close_is_logged_and_close_returns() {
        GuardedEngine engine = guard(
                "date",
                new Engine() {
                    @Override
                    public Set<String> paramTypes() {
                        return Set.of("date");
                    }

                    @Override
                    public List<SpanMatch> match(Ask ask, List<String> spans) {
                        return List.of();
                    }

                    @Override
                    public List<Option> options(Ask ask, String typed) {
                        return List.of();
                    }

                    @Override
                    public void close() {
                        throw new IllegalStateException("stuck");
                    }
                },
                3,
                Duration.ofMinutes(1),
                false);

        engine.close();

        assertTrue(
                warnings().getFirst().contains("failed to close: java.lang.IllegalStateException"),
                warnings().toString());
    }
}
