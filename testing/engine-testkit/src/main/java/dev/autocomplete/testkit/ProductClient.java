package dev.autocomplete.testkit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.protocol.Placeholders;
import dev.autocomplete.server.tenant.EngineLimits;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Sends suggest requests to one product of an {@link EngineTestKit}'s tenant. Immutable: each setting returns a new
 * client, so a test keeps a base client and derives one per step:
 *
 * <pre>{@code
 * ProductClient code = kit.product("code").today(LocalDate.of(2026, 3, 2)).language("en");
 * Answer typed = code.suggest("Open rock");
 * Answer picked = code.pick("repo", "acme/rocket").suggest("Open {{REPO_1}} on ");
 * }</pre>
 *
 * <p>The fields are those of the {@code /api/suggest} body; the server reads and validates them exactly as it reads
 * an HTTP body, so what it would refuse throws {@link RequestRefused}.
 */
public final class ProductClient {

    /** A {@code completed_params} entry: a placeholder, its type and the picked text (null when masked). */
    private record Pick(String placeholder, String type, String text) {}

    /** A pair of {@code recently_suggested} or {@code identified_params}. */
    private record Pair(String type, String text) {}

    private final Core core;
    private final Tenant tenant;
    private final Product product;
    private final LocalDate today;
    private final String language;
    private final JsonNode context;
    private final List<Pick> picks;
    private final List<String> dismissed;
    private final List<Pair> recent;
    private final List<Pair> echoes;

    ProductClient(Core core, Tenant tenant, Product product) {
        this(core, tenant, product, null, null, null, List.of(), List.of(), List.of(), List.of());
    }

    private ProductClient(
            Core core,
            Tenant tenant,
            Product product,
            LocalDate today,
            String language,
            JsonNode context,
            List<Pick> picks,
            List<String> dismissed,
            List<Pair> recent,
            List<Pair> echoes) {
        this.core = core;
        this.tenant = tenant;
        this.product = product;
        this.today = today;
        this.language = language;
        this.context = context;
        this.picks = List.copyOf(picks);
        this.dismissed = List.copyOf(dismissed);
        this.recent = List.copyOf(recent);
        this.echoes = List.copyOf(echoes);
    }

    /** The product's slug. */
    public String slug() {
        return product.slug();
    }

    /**
     * How long the reading may take before the answer is the product's fallback, as {@code engine_budget_ms} says in
     * {@code tenant.yaml}. The kit's default is the most a tenant may set (10 s), not the tenant's own, so that a
     * cold JVM on a loaded test machine does not turn an answer into the fallback; set the tenant's to test it.
     */
    public ProductClient budget(Duration budget) {
        EngineLimits limits = product.limits();
        Product within = new Product(
                product.id(),
                product.slug(),
                product.maxOptions(),
                product.zone(),
                product.model(),
                product.engines(),
                product.enginesByType(),
                new EngineLimits(
                        budget,
                        limits.fallbackPrompt(),
                        limits.fallbackHints(),
                        limits.circuitFailures(),
                        limits.circuitOpen()));
        return new ProductClient(core, tenant, within, today, language, context, picks, dismissed, recent, echoes);
    }

    /** Answers as on {@code date} in the product's time zone ({@code Ask.today()}); by default the real today. */
    public ProductClient today(LocalDate date) {
        return new ProductClient(
                core,
                tenant,
                product,
                requireNonNull(date, "date is null"),
                language,
                context,
                picks,
                dismissed,
                recent,
                echoes);
    }

    /** {@code meta.language}, a BCP 47 tag such as {@code fr} or {@code de-CH}. */
    public ProductClient language(String tag) {
        return new ProductClient(core, tenant, product, today, tag, context, picks, dismissed, recent, echoes);
    }

    /** {@code data.additional_context} as JSON text, e.g. {@code {"origin": "Lisbon"}}. */
    public ProductClient context(String json) {
        try {
            return withContext(Core.JSON.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("additional_context is not JSON", e);
        }
    }

    /** {@code data.additional_context} from maps, lists, strings, numbers and booleans. */
    public ProductClient context(Map<String, ?> values) {
        return withContext(Core.JSON.valueToTree(values));
    }

    private ProductClient withContext(JsonNode tree) {
        return new ProductClient(core, tenant, product, today, language, tree, picks, dismissed, recent, echoes);
    }

    /**
     * A picked option: a {@code completed_params} entry for the next placeholder of the type, {@code {{REPO_1}}} for
     * the first pick of {@code repo}, {@code {{REPO_2}}} for the second. Write that token in the raw query, where
     * the client put it; an entry whose token is not in the query is ignored, as by the server.
     */
    public ProductClient pick(String type, String text) {
        return pick(nextPlaceholder(type), type, requireNonNull(text, "text is null"));
    }

    /**
     * Refuses a type the product declares no param of: a misspelt type in a test would otherwise be sent as it is
     * (the server echoes unknown types) and the test would check nothing. Throws {@link IllegalArgumentException}.
     */
    private void declared(String type) {
        requireNonNull(type, "type is null");
        if (!product.model().paramTypes().contains(type)) {
            throw new IllegalArgumentException("product '" + product.slug() + "' has no param of type '" + type
                    + "' (its types: " + String.join(", ", product.model().paramTypes()) + ")");
        }
    }

    /** A picked option under a placeholder of your choice, e.g. {@code {{ORIGIN_2}}}. */
    public ProductClient pick(String placeholder, String type, String text) {
        declared(type);
        List<Pick> more = new ArrayList<>(picks);
        more.add(new Pick(placeholder, type, text));
        return new ProductClient(core, tenant, product, today, language, context, more, dismissed, recent, echoes);
    }

    /** A masked pick (the entry without {@code text}) for the next placeholder of the type. */
    public ProductClient masked(String type) {
        return pick(nextPlaceholder(type), type, null);
    }

    /** A dismissed optional param: an entry of the type with an empty placeholder. */
    public ProductClient dismiss(String type) {
        declared(type);
        List<String> more = new ArrayList<>(dismissed);
        more.add(type);
        return new ProductClient(core, tenant, product, today, language, context, picks, more, recent, echoes);
    }

    /** A {@code recently_suggested} entry: an option that was on screen. */
    public ProductClient recentlySuggested(String type, String text) {
        List<Pair> more = new ArrayList<>(recent);
        more.add(new Pair(type, text));
        return new ProductClient(core, tenant, product, today, language, context, picks, dismissed, more, echoes);
    }

    /** An {@code identified_params} entry: a reading of the previous answer, echoed back. */
    public ProductClient identified(String type, String value) {
        List<Pair> more = new ArrayList<>(echoes);
        more.add(new Pair(type, value));
        return new ProductClient(core, tenant, product, today, language, context, picks, dismissed, recent, more);
    }

    /**
     * Sends {@code raw_query} with this client's settings, as {@code POST /api/suggest} with the product's key would.
     *
     * @throws RequestRefused where the server would answer 4xx
     */
    public Answer suggest(String rawQuery) {
        return core.suggest(tenant, product, body(requireNonNull(rawQuery, "rawQuery is null")), today);
    }

    private String nextPlaceholder(String type) {
        long before = picks.stream().filter(p -> p.type().equals(type)).count();
        return "{{" + Placeholders.mintedName(type) + "_" + (before + 1) + "}}";
    }

    private ObjectNode body(String rawQuery) {
        ObjectNode body = Core.JSON.createObjectNode();
        ObjectNode data = body.putObject("data").put("raw_query", rawQuery);
        ArrayNode completed = data.putArray("completed_params");
        for (Pick pick : picks) {
            ObjectNode entry = completed.addObject().put("type", pick.type()).put("placeholder", pick.placeholder());
            if (pick.text() != null) {
                entry.put("text", pick.text());
            }
        }
        dismissed.forEach(type -> completed.addObject().put("type", type).put("placeholder", ""));
        if (context != null) {
            data.set("additional_context", context);
        }
        ArrayNode onScreen = data.putArray("recently_suggested");
        recent.forEach(pair -> onScreen.addObject().put("type", pair.type()).put("text", pair.text()));
        ArrayNode identified = data.putArray("identified_params");
        echoes.forEach(pair -> identified.addObject().put("type", pair.type()).put("value", pair.text()));
        ObjectNode meta = body.putObject("meta")
                .put("request_id", UUID.randomUUID().toString())
                .put("request_at", OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        if (language != null) {
            meta.put("language", language);
        }
        return body;
    }
}
