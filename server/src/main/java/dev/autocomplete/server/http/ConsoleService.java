package dev.autocomplete.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.analytics.Analytics;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyRegistry;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.auth.KeyUse;
import dev.autocomplete.server.catalogs.LiveCatalog;
import dev.autocomplete.server.catalogs.LiveCatalogs;
import dev.autocomplete.server.config.ConsoleHosts;
import dev.autocomplete.server.observe.Health;
import dev.autocomplete.server.observe.HealthCheck;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * The operator console on the management listener only (docs/operations.md, "The console"): the page at
 * {@code /admin/} (bundled by the web build, nothing from another host, a strict CSP) and the JSON it reads:
 * {@code /admin/api/overview} (tenants, products, circuits, catalogs, problems, checks), {@code /admin/api/keys}
 * (ids, types, products, scopes, last use; never a key), {@code /admin/api/analytics}, and
 * {@code POST /admin/api/try-key}, which mints the try-it client a short-lived public key held in memory only.
 *
 * <p>The listener is loopback by default and has no credentials of its own; so that a web page elsewhere cannot read
 * it through a DNS name rebound to 127.0.0.1, it answers only the Host names {@code management.console-hosts} allows
 * ({@link ConsoleHosts}: by default loopback names while the listener is on loopback).
 */
public final class ConsoleService implements HttpService {

    /** The console's page and API below this path. */
    public static final String PATH = "/admin";

    private static final int MAX_DAYS = 90;
    private static final int MAX_BODY_BYTES = 4096;

    private final TenantRegistry tenants;
    private final Health health;
    private final KeyRegistry keys;
    private final LiveCatalogs catalogs;
    private final Analytics analytics;
    private final ConsoleKeys consoleKeys;
    private final ObjectMapper json;
    private final ErrorResponses errors;
    private final IntSupplier publicPort;
    private final boolean publicTls;
    private final ConsoleHosts hosts;
    private final String contentSecurityPolicy;

    /**
     * @param publicPort the API's port, once it listens: where the try-it client sends its requests
     * @param publicTls whether the API's listener speaks HTTPS
     * @param hosts the Host names the console answers
     */
    public ConsoleService(
            TenantRegistry tenants,
            Health health,
            KeyRegistry keys,
            LiveCatalogs catalogs,
            Analytics analytics,
            ObjectMapper json,
            ErrorResponses errors,
            Clock clock,
            IntSupplier publicPort,
            boolean publicTls,
            ConsoleHosts hosts) {
        this.tenants = tenants;
        this.health = health;
        this.keys = keys;
        this.catalogs = catalogs;
        this.analytics = analytics;
        this.consoleKeys = new ConsoleKeys(keys, clock);
        this.json = json;
        this.errors = errors;
        this.publicPort = publicPort;
        this.publicTls = publicTls;
        this.hosts = hosts;
        // The try-it client talks to the API's port on whatever host the page was opened by.
        this.contentSecurityPolicy = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                + "connect-src 'self' " + (publicTls ? "https" : "http") + "://*:%d; base-uri 'none'; "
                + "form-action 'none'; frame-ancestors 'none'";
    }

    @Override
    public void routing(HttpRules rules) {
        rules.any(PATH, this::checkHost)
                .any(PATH + "/*", this::checkHost)
                .route(HeadRequests.get(PATH, (req, res) -> {
                    res.status(Status.MOVED_PERMANENTLY_301);
                    res.header(HeaderNames.LOCATION, PATH + "/");
                    res.send();
                }))
                .route(HeadRequests.get(PATH + "/api/overview", (req, res) -> send(res, overview())))
                .route(HeadRequests.get(PATH + "/api/keys", (req, res) -> send(res, Map.of("keys", keyList()))))
                .route(HeadRequests.get(PATH + "/api/analytics", this::analytics))
                .post(PATH + "/api/try-key", this::tryKey)
                // Another method on an API path is told which one it takes (RFC 9110: a 405 names them in Allow).
                .any(PATH + "/api/try-key", (req, res) -> errors.methodNotAllowed(res, "POST", "Use POST."));
        for (String read : List.of("/api/overview", "/api/keys", "/api/analytics")) {
            rules.any(PATH + read, (req, res) -> errors.methodNotAllowed(res, "GET, HEAD", "Use GET."));
        }
        BundledFiles.serve(
                rules,
                PATH,
                "console",
                () -> contentSecurityPolicy.formatted(publicPort.getAsInt()),
                name -> false,
                errors,
                "The console is not in this build; build with `./autocomplete package`.");
    }

    private void checkHost(ServerRequest request, ServerResponse response) {
        if (!hosts.allows(request.headers().first(HeaderNames.HOST).orElse(""))) {
            errors.send(
                    response,
                    403,
                    "HOST_NOT_ALLOWED",
                    "The console answers loopback names (localhost, 127.x.x.x, [::1])"
                            + (hosts.names().isEmpty() ? "" : " and those in management.console-hosts")
                            + " only; set management.console-hosts to the name you open it by.");
            return;
        }
        response.next();
    }

    private Map<String, Object> overview() {
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("public_port", publicPort.getAsInt());
        server.put("public_scheme", publicTls ? "https" : "http");
        List<HealthCheck.Status> checks = health.checks();
        server.put("status", Health.serving(checks) ? "UP" : "DOWN");
        // What /ready answers load balancers: DOWN while any check is, a tenant that never loaded included, when the
        // status above may still be UP (an operator trial saw "Server UP" beside a 503 from /ready).
        server.put("ready", checks.stream().allMatch(HealthCheck.Status::up));
        // Suggest and telemetry requests refused before a key named their tenant: no product's, so shown here, since
        // this process started (in memory only).
        server.put("refused_without_tenant", analytics.refusedWithoutTenant());
        Map<String, Tenant> serving = tenants.tenants();
        Map<String, List<Map<String, Object>>> catalogsByTenant = new LinkedHashMap<>();
        List<LiveCatalog> open = new ArrayList<>(catalogs.opened());
        open.sort(Comparator.comparing(c -> c.ref().toString()));
        for (LiveCatalog catalog : open) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", catalog.ref().catalog());
            entry.put("size", catalog.options().size());
            entry.put("generation", catalog.generation());
            catalogsByTenant
                    .computeIfAbsent(catalog.ref().tenant(), t -> new ArrayList<>())
                    .add(entry);
        }
        List<Map<String, Object>> tenantList = new ArrayList<>();
        List<Map<String, Object>> otherChecks = new ArrayList<>();
        for (HealthCheck.Status check : checks) {
            if (!check.name().startsWith("tenant:")) {
                otherChecks.add(
                        Map.of("name", check.name(), "status", check.up() ? "UP" : "DOWN", "data", check.data()));
                continue;
            }
            String id = check.name().substring("tenant:".length());
            Tenant tenant = serving.get(id);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", id);
            entry.put("status", check.up() ? "UP" : "DOWN");
            if (tenant != null) {
                entry.put("display_name", tenant.displayName());
                entry.put("learn", tenant.learn());
            }
            Object problems = check.data().get("problems");
            Object ofLastChange = check.data().get("problems_of_last_change_not_loaded");
            entry.put("problems", problems != null ? problems : ofLastChange != null ? ofLastChange : List.of());
            @SuppressWarnings("unchecked")
            Map<String, Object> circuits = (Map<String, Object>) check.data().getOrDefault("products", Map.of());
            List<Map<String, Object>> products = new ArrayList<>();
            if (tenant != null) {
                for (Product product : tenant.products()) {
                    Map<String, Object> one = new LinkedHashMap<>();
                    one.put("slug", product.slug());
                    one.put("id", product.id().toString());
                    one.put("health", circuits.getOrDefault(product.slug(), Map.of()));
                    one.put("languages", product.model().languages());
                    products.add(one);
                }
            }
            entry.put("products", products);
            entry.put("catalogs", catalogsByTenant.getOrDefault(id, List.of()));
            tenantList.add(entry);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("server", server);
        data.put("tenants", tenantList);
        data.put("checks", otherChecks);
        return data;
    }

    private List<Map<String, Object>> keyList() {
        List<KeyRecord> records = new ArrayList<>(keys.records());
        records.sort(Comparator.comparing(KeyRecord::tenantId).thenComparing(KeyRecord::createdAt));
        List<Map<String, Object>> list = new ArrayList<>();
        for (KeyRecord record : records) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", record.id());
            entry.put("tenant", record.tenantId());
            entry.put("type", record.type().wireName());
            entry.put(
                    "product",
                    record.productId() == null
                            ? null
                            : tenants.tenant(record.tenantId())
                                    .flatMap(t -> t.product(record.productId()))
                                    .map(Product::slug)
                                    .orElse(record.productId().toString()));
            // A public key serves suggest requests (and their events) only, whatever its record holds: as keys list
            // and the console page say.
            entry.put(
                    "scopes",
                    record.type() == KeyType.PUBLIC
                            ? List.of("suggest")
                            : KeyUse.names(record.scope().uses()));
            entry.put(
                    "origins",
                    record.scope().origins().stream().map(Object::toString).toList());
            entry.put("created_at", record.createdAt().toString());
            entry.put(
                    "expires_at",
                    record.scope().expiresAt() == null
                            ? null
                            : record.scope().expiresAt().toString());
            entry.put(
                    "revoked_at",
                    record.revokedAt() == null ? null : record.revokedAt().toString());
            entry.put(
                    "last_used_at",
                    keys.lastUse(record.id()).map(Object::toString).orElse(null));
            entry.put("in_memory", keys.ephemeral(record.id()));
            list.add(entry);
        }
        return list;
    }

    private void analytics(ServerRequest request, ServerResponse response) {
        String tenant = request.query().first("tenant").orElse("");
        String product = request.query().first("product").orElse("");
        String daysText = request.query().first("days").orElse("7");
        int days;
        try {
            days = Integer.parseInt(daysText);
        } catch (NumberFormatException e) {
            days = -1;
        }
        if (days < 1 || days > MAX_DAYS) {
            errors.send(response, 400, "INVALID_REQUEST", "days must be a whole number from 1 to " + MAX_DAYS + ".");
            return;
        }
        if (tenant.isEmpty() || product.isEmpty()) {
            errors.send(
                    response,
                    400,
                    "INVALID_REQUEST",
                    "Name the tenant and the product: ?tenant=T&product=P (a product's slug or id).");
            return;
        }
        Optional<Product> found = tenants.tenant(tenant).flatMap(t -> t.product(product));
        if (found.isEmpty()) {
            errors.send(
                    response,
                    404,
                    "NOT_FOUND",
                    "No loaded tenant '" + printable(tenant) + "' with a product '" + printable(product) + "'.");
            return;
        }
        try {
            send(response, analytics.report(tenant, found.get().slug(), days));
        } catch (StorageUnavailableException e) {
            errors.send(response, 503, "STORAGE_UNAVAILABLE", "The analytics store is unavailable; try again.");
        }
    }

    private void tryKey(ServerRequest request, ServerResponse response) {
        try {
            // application/json as /api/suggest reads it: 'application/jsonx' or 'application/json, text/plain' are not
            // (a hostile trial found them taken here and refused there).
            JsonRequests.requireJson(request);
        } catch (ApiException e) {
            errors.send(response, e.status(), e.code(), e.getMessage());
            return;
        }
        JsonNode body;
        try {
            byte[] bytes = request.content().inputStream().readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                errors.send(
                        response,
                        413,
                        "PAYLOAD_TOO_LARGE",
                        "A try-key body is at most " + MAX_BODY_BYTES + " bytes: {\"tenant\": ..., \"product\": ...}.");
                return;
            }
            body = json.readTree(bytes);
        } catch (IOException e) {
            body = null;
        } catch (RuntimeException e) {
            ApiException framing = JsonRequests.chunkFraming(e);
            if (framing == null) {
                throw e;
            }
            errors.send(response, framing); // this listener's routing maps no ApiException
            return;
        }
        if (body == null
                || !body.path("tenant").isTextual()
                || !body.path("product").isTextual()) {
            errors.send(
                    response,
                    400,
                    "INVALID_REQUEST",
                    "Send {\"tenant\": \"...\", \"product\": \"...\"} (a product slug or id).");
            return;
        }
        String tenantId = body.path("tenant").asText();
        String productName = body.path("product").asText();
        Optional<Product> product = tenants.tenant(tenantId).flatMap(t -> t.product(productName));
        if (product.isEmpty()) {
            errors.send(
                    response, 404, "NOT_FOUND", "No loaded tenant '" + printable(tenantId) + "' with that product.");
            return;
        }
        ConsoleKeys.Minted minted =
                consoleKeys.forProduct(tenantId, product.get().id());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("tenant", tenantId);
        data.put("product", product.get().slug());
        data.put("product_id", product.get().id().toString());
        data.put("public_key", minted.key());
        data.put("key_id", minted.id());
        data.put("expires_at", minted.expiresAt().toString());
        data.put("public_port", publicPort.getAsInt());
        data.put("public_scheme", publicTls ? "https" : "http");
        data.put("context_example", product.get().model().contextExample());
        send(response, data);
    }

    /** A name from the query, safe to repeat in a message: at most 64 printable ASCII characters. */
    private static String printable(String text) {
        String cut = text.length() > 64 ? text.substring(0, 64) : text;
        return cut.replaceAll("[^\\x20-\\x7E]", "?");
    }

    private void send(ServerResponse response, Object data) {
        try {
            response.status(Status.OK_200);
            response.header(HeaderValues.CONTENT_TYPE_JSON);
            response.header(HeaderNames.CACHE_CONTROL, "no-store");
            HeadRequests.send(response, json.writeValueAsBytes(Map.of("data", data)));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
