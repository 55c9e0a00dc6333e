package dev.autocomplete.server.observe;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.autocomplete.server.suggest.EngineRunner;
import dev.autocomplete.server.tenant.Problem;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;

/**
 * The state behind {@code /observe/health}: one check per tenant directory (up when a tenant serves from
 * it, with its products, their engines and circuits, and the problems of its last change, if any), plus
 * any registered {@link HealthCheck}s. Ready when every check is up, that is every tenant loaded.
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

    /** Every check, tenants first (sorted by id). */
    public List<HealthCheck.Status> checks() {
        Map<String, Tenant> serving = tenants.tenants();
        Set<String> ids = new TreeSet<>(serving.keySet());
        Map<String, List<Problem>> problems = new LinkedHashMap<>();
        for (Problem problem : tenants.problems()) {
            Path directory = tenants.root().relativize(problem.file()).getName(0);
            problems.computeIfAbsent(directory.toString(), k -> new ArrayList<>()).add(problem);
        }
        ids.addAll(problems.keySet());
        List<HealthCheck.Status> checks = new ArrayList<>();
        for (String id : ids) {
            Tenant tenant = serving.get(id);
            Map<String, Object> data = new LinkedHashMap<>();
            if (tenant != null) {
                Map<String, Object> products = new LinkedHashMap<>();
                for (Product product : tenant.products()) {
                    Map<String, Object> circuits = new LinkedHashMap<>();
                    product.engines().forEach(engine -> circuits.put(engine.name(), engine.circuitState()));
                    products.put(product.slug(), Map.of("engines", circuits));
                }
                data.put("products", products);
            }
            List<Problem> found = problems.getOrDefault(id, List.of());
            if (!found.isEmpty()) {
                data.put(tenant == null ? "problems" : "problems_of_last_change_not_loaded",
                        found.stream().map(p -> tenants.root().relativize(p.file()) + ":" + Math.max(1, p.line())
                                + ": " + p.message()).toList());
            }
            checks.add(new HealthCheck.Status("tenant:" + id, tenant != null, data));
        }
        extra.forEach(check -> checks.add(check.check()));
        return checks;
    }
}
