package dev.autocomplete.server.suggest;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.autocomplete.server.reading.Query;
import dev.autocomplete.server.reading.QueryReader;
import dev.autocomplete.server.reading.Reading;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;

/**
 * Reads a query with a product's engines so that their faults stay theirs: the whole reading (the core's reader
 * and every engine question it asks, in-process) runs on one virtual thread and is waited for at most the
 * product's budget. An engine that throws costs only its params ({@link GuardedEngine}); a reading that runs out of
 * time gives {@link Result#failed()} (the caller answers with the product's fallback) and counts against the
 * engine it was waiting for. Thread-safe and stateless.
 */
public final class EngineRunner {

    private static final System.Logger LOG = System.getLogger(EngineRunner.class.getName());

    /**
     * The outcome of one reading.
     *
     * @param reading the reading, or null when it failed
     * @param outcome what came of it: {@code ERROR} also when the reading completed but an engine failed a question (costing
     *     only its params)
     * @param engineNanos time spent waiting for the reading (0 when no engine was asked)
     * @param calls what the engines did
     */
    public record Result(Reading reading, EngineOutcome outcome, long engineNanos, EngineCalls calls) {
        public boolean failed() {
            return reading == null;
        }
    }

    /**
     * Reads the query with the product's engines. The caller holds the tenant (its admission's lease), so a reload
     * cannot close the engines meanwhile.
     */
    public Result read(Tenant tenant, Product product, Query query, Map<String, String> picked) {
        long start = System.nanoTime();
        long budget = product.limits().budget().toNanos();
        EngineCalls calls = new EngineCalls();
        CompletableFuture<Reading> future = new CompletableFuture<>();
        Thread reading = Thread.ofVirtual().name("read-" + tenant.id() + "-" + product.slug()).start(() -> {
            try {
                future.complete(QueryReader.read(product.model(), query, product.enginesByType(), calls,
                        start + budget, picked));
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        });
        try {
            Reading answer = future.get(budget, TimeUnit.NANOSECONDS);
            return done(answer, EngineOutcome.OK, System.nanoTime() - start, calls);
        } catch (TimeoutException e) {
            reading.interrupt();
            GuardedEngine late = calls.blame(System.nanoTime());
            if (late != null) {
                late.timedOut();
            }
            LOG.log(System.Logger.Level.WARNING, "Reading for " + tenant.id() + "/" + product.slug()
                    + " did not finish within " + product.limits().budget().toMillis() + " ms"
                    + (late == null ? "" : "; blamed on engine " + late.name() + " (" + timeByEngine(calls) + ")"));
            return done(null, EngineOutcome.TIMEOUT, System.nanoTime() - start, calls);
        } catch (ExecutionException e) {
            // Only the class name: a message might quote the query.
            LOG.log(System.Logger.Level.WARNING, "Reading for " + tenant.id() + "/" + product.slug() + " failed: "
                    + e.getCause().getClass().getName());
            return done(null, EngineOutcome.ERROR, System.nanoTime() - start, calls);
        } catch (InterruptedException e) {
            reading.interrupt();
            Thread.currentThread().interrupt();
            return done(null, EngineOutcome.TIMEOUT, System.nanoTime() - start, calls);
        }
    }

    /** Where the request's time went, engine by engine: {@code faulty 998 ms, catalogs 0.1 ms}. */
    private static String timeByEngine(EngineCalls calls) {
        StringBuilder line = new StringBuilder();
        for (EngineCalls.Use use : calls.uses()) {
            line.append(line.isEmpty() ? "" : ", ").append(use.engine()).append(' ')
                    .append(Math.round(use.nanos() / 100_000.0) / 10.0).append(" ms");
        }
        return line.toString();
    }

    private static Result done(Reading reading, EngineOutcome outcome, long nanos, EngineCalls calls) {
        EngineOutcome reported = outcome;
        if (outcome == EngineOutcome.OK && calls.byEngine().values().stream().anyMatch(t -> t.failures() > 0)) {
            reported = EngineOutcome.ERROR;
        }
        return new Result(reading, reported, nanos, calls);
    }
}
