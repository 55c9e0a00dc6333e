package dev.autocomplete.server.observe;

import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.tenant.Problem;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The state behind {@code /observe/health}: one check per tenant directory (up when a tenant serves from
 * it, with its products, their engines and circuits, and the problems of its last change, if any), plus
 * any registered {@link HealthCheck}s. The server is up while it serves ({@link #serving}): a tenant that does
 * not load is down in its own check, with the reason, and costs only its own requests; an open circuit shows
 * on its product and engine.
 */
public final class Health {

    private final TenantRegistry tenants;
    private final EngineRunner engines;
    private final List<HealthCheck> extra = new CopyOnWriteArrayList<>();

    public Health(TenantRegistry tenants, EngineRunner engines) {
        this.tenants = tenants;
        this.engines = engines;
    }

    /** Adds a check, e.g. the status of a connection to Redis. */
    public void add(HealthCheck check) {
        extra.add(check);
    }

    /**
     * Whether the server as a whole is up: every check it needs to serve is up. A tenant's check is not one of
     * them: a broken tenant is down in its own check while the others serve.
     */
    public static boolean serving(List<HealthCheck.Status> checks) {
        return checks.stream().filter(HealthCheck.Status::needed).allMatch(HealthCheck.Status::up);
    }

    /** Every check, tenants first (sorted by id). */
    public List<HealthCheck.Status> checks() {
        Map<String, Tenant> serving = tenants.tenants();
        Set<String> ids = new TreeSet<>(serving.keySet());
        Map<String, List<Problem>> problems = new LinkedHashMap<>();
        for (Problem problem : tenants.problems()) {
            Path directory = tenants.root().relativize(problem.file()).getName(0);
            problems.computeIfAbsent(directory.toString(), k -> new ArrayList<>())
                    .add(problem);
        }
        ids.addAll(problems.keySet());
        List<HealthCheck.Status> checks = new ArrayList<>();
        for (String id : ids) {
            Tenant tenant = serving.get(id);
            Map<String, Object> data = new LinkedHashMap<>();
            if (tenant != null) {
                Map<String, Object> products = new LinkedHashMap<>();
                for (Product product : tenant.products()) {
                    Map<String, Object> byName = new LinkedHashMap<>();
                    String worst = "closed";
                    for (GuardedEngine engine : product.engines()) {
                        String state = engine.circuitState();
                        byName.put(engine.name(), Map.of("circuit", state));
                        if (!state.equals("closed") && !worst.equals("open")) {
                            worst = state;
                        }
                    }
                    // The product's circuit: its most open engine's, so that one glance finds a degraded product.
                    products.put(product.slug(), Map.of("circuit", worst, "engines", byName));
                }
                data.put("products", products);
            }
            List<Problem> found = problems.getOrDefault(id, List.of());
            if (!found.isEmpty()) {
                data.put(
                        tenant == null ? "problems" : "problems_of_last_change_not_loaded",
                        found.stream()
                                .map(p -> tenants.root().relativize(p.file()) + ":" + Math.max(1, p.line()) + ": "
                                        + p.message())
                                .toList());
            }
            checks.add(new HealthCheck.Status("tenant:" + id, tenant != null, data, false));
        }
        extra.forEach(check -> checks.add(check.check()));
        return checks;
    }
}
