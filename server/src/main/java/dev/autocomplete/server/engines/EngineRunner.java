package dev.autocomplete.server.engines;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Runs work that asks engines so that their faults stay theirs: the work (a reading: the core's reader and every
 * engine question it asks, in-process) runs on one virtual thread and is waited for at most a budget. An engine
 * that throws costs only its params ({@link GuardedEngine}); work that runs out of time gives
 * {@link Result#failed()} (a request answers with the product's fallback) and counts against the engine it was
 * waiting for. The one runner of requests and of a tenant load's warm-up. Thread-safe.
 */
public final class EngineRunner {

    private static final System.Logger LOG = System.getLogger(EngineRunner.class.getName());
    private static final Deadlines DEADLINES = new Deadlines();
    /** How often a reading on the request's thread that ran out of its budget is logged. */
    static final Duration OVERRUN_LOG = Duration.ofSeconds(10);

    private final LogThrottle overruns = new LogThrottle(OVERRUN_LOG);

    /** Work that asks engines through {@code calls}, to finish by {@code deadlineNanos} ({@link System#nanoTime}). */
    @FunctionalInterface
    public interface Work<T> {
        T run(EngineCalls calls, long deadlineNanos) throws Exception;
    }

    /**
     * The outcome of one piece of work.
     *
     * @param value what the work returned, or null when it failed
     * @param outcome what came of it: {@code ERROR} also when the work completed but an engine failed a question
     *     (costing only its params)
     * @param engineNanos time spent waiting for the work
     * @param calls what the engines did, as a value
     */
    public record Result<T>(T value, EngineOutcome outcome, long engineNanos, EngineCalls.Summary calls) {
        public boolean failed() {
            return value == null;
        }
    }

    /**
     * Runs {@code work} within {@code budget}. The caller holds what the engines belong to (a request's tenant
     * lease), so a reload cannot close them meanwhile.
     *
     * @param name what the work is, for the log ({@code tenant/product})
     */
    public <T> Result<T> run(String name, Duration budget, Work<T> work) {
        long start = System.nanoTime();
        long deadline = start + budget.toNanos();
        EngineCalls calls = new EngineCalls();
        CompletableFuture<T> future = new CompletableFuture<>();
        // Not Throwable: an OutOfMemoryError or StackOverflowError ends this thread and the wait below times out,
        // rather than being taken for one engine's fault.
        Thread thread = Thread.ofVirtual()
                .name(EngineCode.READING_THREAD + name)
                .start(() -> {
                    try {
                        future.complete(work.run(calls, deadline));
                    } catch (Exception | LinkageError | AssertionError e) {
                        future.completeExceptionally(e);
                    }
                });
        // An untimed wait, the budget kept by the one watchdog: a timed wait scheduled and cancelled a timer task per
        // request, about a tenth of an uncached request's CPU (docs/benchmarks.md).
        Deadlines.Run run = DEADLINES.watch(future, deadline);
        try {
            T value = future.get();
            // In time: ends the row of readings that ran out of time on each engine it asked (Circuit).
            calls.inTime();
            return done(value, EngineOutcome.OK, System.nanoTime() - start, calls);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof Deadlines.Overdue) && !(e.getCause() instanceof BudgetSpent)) {
                return failed(name, e.getCause(), start, calls);
            }
            thread.interrupt();
            GuardedEngine late = calls.blame(System.nanoTime());
            if (late != null) {
                late.timedOut();
            }
            // At most one line every OVERRUN_LOG, as on the request's own thread: an engine that is slow on every
            // request wrote one per request (an engine author's trial).
            int heldBack = overruns.admit(System.nanoTime());
            if (heldBack >= 0) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Reading for " + name + " did not finish within "
                                + budget.toMillis() + " ms"
                                + (late == null
                                        ? ""
                                        : "; blamed on engine " + late.name() + late.build() + " ("
                                                + timeByEngine(calls.summary())
                                                + ")")
                                + (heldBack > 0 ? "; " + heldBack + " more since the last line" : ""));
            }
            return done(null, EngineOutcome.TIMEOUT, System.nanoTime() - start, calls);
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            return done(null, EngineOutcome.TIMEOUT, System.nanoTime() - start, calls);
        } finally {
            DEADLINES.forget(run);
        }
    }

    /**
     * Runs {@code work} that asks only the core's own code (its option lists: no plug-in) on the caller's thread:
     * no hand-off to a thread of its own, whose park and unpark cost 8 % of an uncached request's CPU
     * (docs/benchmarks.md). The work keeps the budget itself: it stops before its next question once the deadline
     * has passed ({@link BudgetSpent}), which is a timeout, logged at most once per {@link #OVERRUN_LOG} per runner
     * (a long query sent on purpose must not write a line each time). No engine is blamed: the core's own catalogs
     * have no circuit to open. Faults are handled as {@link #run}'s are.
     */
    public <T> Result<T> runHere(String name, Duration budget, Work<T> work) {
        long start = System.nanoTime();
        EngineCalls calls = new EngineCalls();
        try {
            T value = work.run(calls, start + budget.toNanos());
            return done(value, EngineOutcome.OK, System.nanoTime() - start, calls);
        } catch (BudgetSpent e) {
            int heldBack = overruns.admit(System.nanoTime());
            if (heldBack >= 0) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Reading for " + name + " did not finish within " + budget.toMillis() + " ms ("
                                + timeByEngine(calls.summary()) + ")"
                                + (heldBack > 0 ? "; " + heldBack + " more since the last line" : ""));
            }
            return done(null, EngineOutcome.TIMEOUT, System.nanoTime() - start, calls);
        } catch (Exception | LinkageError | AssertionError e) {
            return failed(name, e, start, calls);
        }
    }

    private static <T> Result<T> failed(String name, Throwable cause, long start, EngineCalls calls) {
        // Only the class name: a message might quote the query.
        LOG.log(
                System.Logger.Level.WARNING,
                "Reading for " + name + " failed: " + cause.getClass().getName());
        return done(null, EngineOutcome.ERROR, System.nanoTime() - start, calls);
    }

    /** Where the time went, engine by engine: {@code faulty 998 ms, catalogs 0.1 ms}. */
    private static String timeByEngine(EngineCalls.Summary calls) {
        StringBuilder line = new StringBuilder();
        for (EngineCalls.Use use : calls.uses()) {
            line.append(line.isEmpty() ? "" : ", ")
                    .append(use.engine())
                    .append(' ')
                    .append(Math.round(use.nanos() / 100_000.0) / 10.0)
                    .append(" ms");
        }
        return line.toString();
    }

    private static <T> Result<T> done(T value, EngineOutcome outcome, long nanos, EngineCalls calls) {
        // Read after the work finished or was given up on: the summary is taken once, here.
        EngineCalls.Summary summary = calls.summary();
        // A reading that finished with failed questions says how they failed (the access log, the fallback metrics).
        EngineOutcome reported = outcome == EngineOutcome.OK ? summary.outcome() : outcome;
        return new Result<>(value, reported, nanos, summary);
    }
}
