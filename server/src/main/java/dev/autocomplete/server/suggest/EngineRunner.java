package dev.autocomplete.server.suggest;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;

/**
 * Calls a product's engine so that its faults stay its own: the call runs on its own virtual thread with the
 * tenant's class loader and is waited for at most the product's budget; a throw, a null or unusable reading,
 * or a timeout gives {@link Result#failed()} (the caller answers with the product's fallback), and repeated
 * failures open the product's {@link Circuit}. Thread-safe.
 */
public final class EngineRunner {

    /** More options than this in one suggestion is an engine bug, not a long list to cut. */
    public static final int MAX_OPTIONS_PER_SUGGESTION = 10_000;

    private static final System.Logger LOG = System.getLogger(EngineRunner.class.getName());

    private final TenantRegistry tenants;
    private final EngineObserver observer;
    private final Map<String, ProductCircuit> circuits = new ConcurrentHashMap<>();

    private record ProductCircuit(Product product, Circuit circuit) {
    }

    /**
     * The outcome of one call.
     *
     * @param reading the engine's reading, or null when it failed
     */
    public record Result(Reading reading, EngineObserver.Outcome outcome, long engineNanos) {
        public boolean failed() {
            return reading == null;
        }
    }

    public EngineRunner(TenantRegistry tenants, EngineObserver observer) {
        this.tenants = tenants;
        this.observer = observer;
    }

    /**
     * Reads the query with the product's engine, holding the tenant so that a reload cannot close it meanwhile.
     * When the tenant was already replaced, the replacement's product of the same id answers.
     */
    public Result read(Tenant tenant, Product product, Query query) {
        Optional<TenantRegistry.Lease> lease = tenants.lease(tenant);
        if (lease.isEmpty()) {
            observer.engineCall(tenant.id(), product.slug(), EngineObserver.Outcome.UNLOADED, 0);
            return new Result(null, EngineObserver.Outcome.UNLOADED, 0);
        }
        try (TenantRegistry.Lease held = lease.get()) {
            Tenant current = held.tenant();
            Optional<Product> same = current == tenant ? Optional.of(product) : current.product(product.id());
            if (same.isEmpty()) {
                observer.engineCall(tenant.id(), product.slug(), EngineObserver.Outcome.UNLOADED, 0);
                return new Result(null, EngineObserver.Outcome.UNLOADED, 0);
            }
            return call(current, same.get(), query);
        }
    }

    private Result call(Tenant tenant, Product product, Query query) {
        Circuit circuit = circuit(tenant, product);
        if (!circuit.allow(System.nanoTime())) {
            return done(tenant, product, circuit, null, EngineObserver.Outcome.CIRCUIT_OPEN, 0);
        }
        long start = System.nanoTime();
        CompletableFuture<Reading> future = new CompletableFuture<>();
        Thread call = Thread.ofVirtual().name("engine-" + tenant.id() + "-" + product.slug()).start(() -> {
            try {
                future.complete(tenant.withEngineLoader(() -> product.engine().read(query)));
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        });
        try {
            Reading reading = future.get(product.limits().budget().toNanos(), TimeUnit.NANOSECONDS);
            long nanos = System.nanoTime() - start;
            String problem = problem(reading);
            if (problem != null) {
                LOG.log(System.Logger.Level.WARNING, "Engine of " + tenant.id() + "/" + product.slug()
                        + " gave an unusable reading: " + problem);
                return done(tenant, product, circuit, null, EngineObserver.Outcome.INVALID, nanos);
            }
            return done(tenant, product, circuit, reading, EngineObserver.Outcome.OK, nanos);
        } catch (TimeoutException e) {
            call.interrupt();
            LOG.log(System.Logger.Level.WARNING, "Engine of " + tenant.id() + "/" + product.slug()
                    + " did not answer within " + product.limits().budget().toMillis() + " ms");
            return done(tenant, product, circuit, null, EngineObserver.Outcome.TIMEOUT, System.nanoTime() - start);
        } catch (ExecutionException e) {
            // Only the class name: an engine's message might quote the query.
            LOG.log(System.Logger.Level.WARNING, "Engine of " + tenant.id() + "/" + product.slug() + " failed: "
                    + e.getCause().getClass().getName());
            return done(tenant, product, circuit, null, EngineObserver.Outcome.ERROR, System.nanoTime() - start);
        } catch (InterruptedException e) {
            call.interrupt();
            Thread.currentThread().interrupt();
            return done(tenant, product, circuit, null, EngineObserver.Outcome.TIMEOUT, System.nanoTime() - start);
        }
    }

    /** The state of a product's circuit: {@code closed}, {@code open} or {@code half_open}. */
    public String circuitState(Tenant tenant, Product product) {
        ProductCircuit entry = circuits.get(key(tenant, product));
        if (entry == null || entry.product() != product) {
            return "closed";
        }
        return entry.circuit().state(System.nanoTime()).name().toLowerCase(java.util.Locale.ROOT);
    }

    private Result done(Tenant tenant, Product product, Circuit circuit, Reading reading,
            EngineObserver.Outcome outcome, long nanos) {
        if (outcome == EngineObserver.Outcome.OK) {
            circuit.succeeded();
        } else if (outcome != EngineObserver.Outcome.CIRCUIT_OPEN) {
            circuit.failed(System.nanoTime());
        }
        observer.engineCall(tenant.id(), product.slug(), outcome, nanos);
        return new Result(reading, outcome, nanos);
    }

    /** A reloaded product (a new instance) starts with a closed circuit. */
    private Circuit circuit(Tenant tenant, Product product) {
        return circuits.compute(key(tenant, product), (key, entry) -> entry != null && entry.product() == product
                ? entry
                : new ProductCircuit(product, new Circuit(product.limits().circuitFailures(),
                        product.limits().circuitOpen()))).circuit();
    }

    private static String key(Tenant tenant, Product product) {
        return tenant.id() + "/" + product.id();
    }

    /**
     * Why a reading cannot be used, or null when it can. Blank types cannot reach here (the SPI records refuse
     * them, so the engine throws); repeated types are dropped and long option lists cut by the {@link Suggester}.
     */
    private static String problem(Reading reading) {
        if (reading == null) {
            return "null";
        }
        for (Reading.ParamSuggestion suggestion : reading.suggestions()) {
            if (suggestion.options().size() > MAX_OPTIONS_PER_SUGGESTION) {
                return suggestion.options().size() + " options for one suggestion";
            }
        }
        return null;
    }
}
