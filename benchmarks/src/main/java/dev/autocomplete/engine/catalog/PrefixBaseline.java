package dev.autocomplete.engine.catalog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigTree;
import dev.autocomplete.spi.toolkit.TextFolding;

/**
 * The quality benchmark's baseline, "a plain prefix match ordered by population": wraps the real server's
 * answers and replaces the active suggestion's options with the options whose text starts with what was
 * typed after the last token (case- and accent-folded, no inner words, no aliases, no typos), heaviest
 * first. Everything else (the reading of the query, readiness, the other suggestions) is the server's, so
 * the two runs differ only in matching and ranking. Lives in the engine's package to read its options.
 */
public final class PrefixBaseline {

    private static final Pattern TOKEN = Pattern.compile("\\{\\{[A-Z0-9_]+_[1-9][0-9]*}}");

    private final Map<String, Map<String, OptionCatalog>> catalogs = new HashMap<>();
    private final int limit;

    /** The option lists of the catalog params of every product of the tenant in {@code tenantDir}. */
    public PrefixBaseline(Path tenantDir, int limit) throws IOException, EngineConfigException {
        this.limit = limit;
        YAMLMapper yaml = new YAMLMapper();
        JsonNode tenant = yaml.readTree(tenantDir.resolve("tenant.yaml").toFile());
        String language = tenant.path("default_language").asText("en");
        @SuppressWarnings("unchecked")
        Map<String, Object> tenantCatalogs = tenant.has("catalogs")
                ? yaml.convertValue(tenant.path("catalogs"), Map.class) : Map.of();
        JsonNode products = tenant.path("products");
        for (int p = 0; p < products.size(); p++) {
            List<ParamSpec> params = new ArrayList<>();
            JsonNode intents = products.get(p).path("intents");
            for (int i = 0; i < intents.size(); i++) {
                JsonNode paramNodes = intents.get(i).path("params");
                for (int k = 0; k < paramNodes.size(); k++) {
                    JsonNode param = paramNodes.get(k);
                    if (!"catalog".equals(param.path("engine").asText("catalog"))) {
                        continue;
                    }
                    Map<String, Object> config = new HashMap<>();
                    for (String key : List.of("catalog", "options")) {
                        if (param.has(key)) {
                            config.put(key, yaml.convertValue(param.get(key), Object.class));
                        }
                    }
                    params.add(new ParamSpec(param.path("type").asText(), ConfigTree.at(
                            "products[" + p + "].intents[" + i + "].params[" + k + "]", config)));
                }
            }
            if (params.isEmpty()) {
                continue;
            }
            String slug = products.get(p).path("slug").asText();
            CatalogEngine engine = (CatalogEngine) new CatalogEngineFactory()
                    .create(BenchContexts.of(tenantDir, slug, language, tenantCatalogs, params));
            Map<String, OptionCatalog> byType = new HashMap<>();
            engine.paramTypes().forEach(type -> byType.put(type, engine.options(type).catalog()));
            catalogs.put(slug, byType);
        }
    }

    /** A transport that answers like {@code server} with the active suggestion's options re-matched. */
    public Function<ObjectNode, JsonNode> around(String product, Function<ObjectNode, JsonNode> server) {
        Map<String, OptionCatalog> byType = catalogs.get(product);
        return request -> {
            JsonNode response = server.apply(request);
            String typed = typedAfterLastToken(request.path("data").path("raw_query").asText(""));
            for (JsonNode suggestion : response.path("data").path("suggestions")) {
                OptionCatalog catalog = byType.get(suggestion.path("type").asText());
                if (catalog != null) {
                    replaceOptions((ObjectNode) suggestion, catalog, TextFolding.fold(typed));
                    break; // the active suggestion: the first that is not the placeholder
                }
            }
            return response;
        };
    }

    private void replaceOptions(ObjectNode suggestion, OptionCatalog catalog, String prefix) {
        List<Integer> matches = new ArrayList<>();
        for (int option = 0; option < catalog.size(); option++) {
            if (catalog.foldedText(option).startsWith(prefix)) {
                matches.add(option);
            }
        }
        matches.sort(Comparator.comparingDouble((Integer o) -> catalog.weight(o)).reversed());
        ArrayNode options = suggestion.putArray("options");
        matches.stream().limit(limit).forEach(option -> options.addObject()
                .put("text", catalog.text(option)).put("is_tappable", true));
        if (options.isEmpty()) {
            suggestion.remove("options");
        }
    }

    private static String typedAfterLastToken(String rawQuery) {
        Matcher token = TOKEN.matcher(rawQuery);
        int end = 0;
        while (token.find()) {
            end = token.end();
        }
        return rawQuery.substring(end);
    }
}
