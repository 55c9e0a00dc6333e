package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyScope;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.reading.Query;
import dev.autocomplete.server.reading.Segment;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.TenantRegistry;
import dev.autocomplete.spi.AdditionalContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A real tenant, {@code kitchen}, loaded by a real {@link TenantRegistry} from a temporary directory: one product
 * whose {@code fruit} param is served by the test engine that misbehaves on request (typed text starting with
 * {@code throw} makes it throw, {@code hang} makes it block for three seconds), and whose {@code size} param is
 * served by the catalog; at most one option per suggestion.
 */
final class Kitchen {

    static final UUID PRODUCT_ID = UUID.fromString("5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d");
    static final String REQUEST_ID = "0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
    static final int BUDGET_MILLIS = 300;

    private static final String YAML = """
            display_name: Kitchen
            products:
              - id: %s
                slug: kitchen
                max_options: 1
                engine_budget_ms: %d
                fallback: {prompt: Try again soon, hints: [Eat an apple]}
                intents:
                  - name: eat
                    phrases: [Eat]
                    params:
                      - type: size
                        cues: [size]
                        options: [Small, Medium, Large]
                      - type: fruit
                        required: true
                        engine: faulty
            """.formatted(PRODUCT_ID, BUDGET_MILLIS);

    private Kitchen() {}

    /** Loads the tenant under {@code temp}; close the registry after use. */
    static TenantRegistry load(Path temp) {
        try {
            Path directory = Files.createDirectories(temp.resolve("tenants/kitchen/engines"));
            Files.copy(faultyEngineJar(), directory.resolve("faulty.jar"));
            Files.writeString(directory.resolveSibling("tenant.yaml"), YAML);
            TenantRegistry registry = TenantRegistry.load(temp.resolve("tenants"), new TenantLoader());
            assertTrue(registry.tenant("kitchen").isPresent(), "the tenant loads: " + registry.problems());
            return registry;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Tenant tenant(TenantRegistry registry) {
        return registry.tenant("kitchen").orElseThrow();
    }

    static Product product(TenantRegistry registry) {
        return tenant(registry).product(PRODUCT_ID).orElseThrow();
    }

    /** The caller a public key of the product would be. */
    static Caller caller(TenantRegistry registry) {
        KeyRecord key = new KeyRecord(
                "key1", KeyType.PUBLIC, "kitchen", PRODUCT_ID, "sha256:00", Instant.EPOCH, null, KeyScope.DEFAULT);
        return new Caller(tenant(registry), product(registry), key, Caller.Kind.PUBLIC_KEY);
    }

    /** A request for {@code rawQuery} with no tokens, context or session. */
    static SuggestRequest request(String rawQuery) {
        return request(rawQuery, Set.of(), null);
    }

    static SuggestRequest request(String rawQuery, Set<String> dismissed, String sessionId) {
        return new SuggestRequest(
                rawQuery,
                Map.of(),
                dismissed,
                AdditionalContext.NONE,
                List.of(),
                List.of(),
                REQUEST_ID,
                "2026-03-01T10:00:00Z",
                sessionId,
                null);
    }

    /**
     * {@code request} as the JSON body a client sends: fills and dismissals as {@code completed_params} (dismissals
     * last), and the envelope; the context, echo and suggestions on screen when there are any.
     */
    static byte[] body(SuggestRequest request) {
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("raw_query", request.rawQuery());
        List<Map<String, Object>> completed = new java.util.ArrayList<>();
        request.fills().forEach((token, fill) -> {
            Map<String, Object> entry = new java.util.LinkedHashMap<>();
            entry.put("type", fill.type());
            entry.put("placeholder", token);
            entry.put("text", fill.text());
            completed.add(entry);
        });
        request.dismissedTypes().stream()
                .sorted()
                .forEach(type -> completed.add(Map.of("type", type, "placeholder", "")));
        data.put("completed_params", completed);
        if (!request.identifiedEcho().isEmpty()) {
            data.put(
                    "identified_params",
                    request.identifiedEcho().stream()
                            .map(echo -> Map.of("type", echo.type(), "value", echo.value()))
                            .toList());
        }
        if (!request.recentlySuggested().isEmpty()) {
            data.put(
                    "recently_suggested",
                    request.recentlySuggested().stream()
                            .map(ref -> Map.of("type", ref.type(), "text", ref.text()))
                            .toList());
        }
        if (request.additionalContext() != AdditionalContext.NONE) {
            throw new IllegalArgumentException("a kitchen body carries no context");
        }
        Map<String, Object> meta = new java.util.LinkedHashMap<>();
        meta.put("request_id", request.requestId());
        meta.put("request_at", request.requestAt());
        if (request.sessionId() != null) {
            meta.put("session_id", request.sessionId());
        }
        if (request.language() != null) {
            meta.put("language", request.language());
        }
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsBytes(Map.of("data", data, "meta", meta));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The query the suggester would read for {@code text} typed without tokens. */
    static Query query(String text) {
        return new Query(
                text,
                List.of(new Segment.Text(0, text)),
                Set.of(),
                List.of(),
                AdditionalContext.NONE,
                null,
                1,
                LocalDate.of(2026, 3, 1));
    }

    private static Path faultyEngineJar() {
        String path = System.getProperty("autocomplete.test.faultyEngineJar");
        assertTrue(
                path != null && Files.isRegularFile(Path.of(path)),
                "the test engine JARs must be built first; run the tests with 'mvn verify' (got " + path + ")");
        return Path.of(path);
    }
}
