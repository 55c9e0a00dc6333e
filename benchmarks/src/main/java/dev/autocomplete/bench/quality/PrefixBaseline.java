package dev.autocomplete.bench.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The quality benchmark's baseline, "a plain prefix match ordered by population": wraps the real server's
 * answers and replaces the active suggestion's options with the options whose text starts with what was
 * typed after the last token (case- and accent-folded, no inner words, no aliases, no typos), heaviest
 * first. Everything else (the reading of the query, readiness, the other suggestions) is the server's, so
 * the two runs differ only in matching and ranking. It reads the tenant's option lists itself (catalog CSV
 * files and inline lists, in the default language), with no access to the catalog engine's index.
 */
final class PrefixBaseline {

    private static final Pattern TOKEN = Pattern.compile("\\{\\{[A-Z0-9_]+_[1-9][0-9]*}}");

    /** One option of a list: its text, folded text and weight. */
    private record Entry(String text, String folded, double weight) {}

    private final Map<String, Map<String, List<Entry>>> lists = new HashMap<>();
    private final int limit;

    /** The option lists of the catalog params of every product of the tenant in {@code tenantDir}. */
    PrefixBaseline(Path tenantDir, int limit) throws IOException {
        this.limit = limit;
        JsonNode tenant =
                new YAMLMapper().readTree(tenantDir.resolve("tenant.yaml").toFile());
        Map<String, List<Entry>> catalogs = new HashMap<>();
        for (var catalog : tenant.path("catalogs").properties()) {
            catalogs.put(
                    catalog.getKey(),
                    csv(tenantDir.resolve(catalog.getValue().path("file").asText())));
        }
        for (JsonNode product : tenant.path("products")) {
            Map<String, List<Entry>> byType = new HashMap<>();
            for (JsonNode intent : product.path("intents")) {
                for (JsonNode param : intent.path("params")) {
                    if (param.has("catalog")) {
                        byType.put(
                                param.path("type").asText(),
                                catalogs.get(param.path("catalog").asText()));
                    } else if (param.has("options")) {
                        byType.put(param.path("type").asText(), inline(param.path("options")));
                    }
                }
            }
            lists.put(product.path("slug").asText(), byType);
        }
    }

    /** A transport that answers like {@code server} with the active suggestion's options re-matched. */
    Function<ObjectNode, JsonNode> around(String product, Function<ObjectNode, JsonNode> server) {
        Map<String, List<Entry>> byType = lists.get(product);
        return request -> {
            JsonNode response = server.apply(request);
            String typed =
                    typedAfterLastToken(request.path("data").path("raw_query").asText(""));
            for (JsonNode suggestion : response.path("data").path("suggestions")) {
                List<Entry> options = byType.get(suggestion.path("type").asText());
                if (options != null) {
                    replaceOptions((ObjectNode) suggestion, options, TextFolding.fold(typed));
                    break; // the active suggestion: the first that is not the placeholder
                }
            }
            return response;
        };
    }

    private void replaceOptions(ObjectNode suggestion, List<Entry> entries, String prefix) {
        ArrayNode options = suggestion.putArray("options");
        entries.stream()
                .filter(e -> e.folded().startsWith(prefix))
                .sorted(Comparator.comparingDouble(Entry::weight).reversed())
                .limit(limit)
                .forEach(e -> options.addObject().put("text", e.text()).put("is_tappable", true));
        if (options.isEmpty()) {
            suggestion.remove("options");
        }
    }

    /** A catalog CSV: {@code text} and {@code weight} columns (an unweighted row weighs 0, as in the engine). */
    private static List<Entry> csv(Path file) throws IOException {
        CSVFormat format = CSVFormat.RFC4180
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .get();
        List<Entry> entries = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (CSVRecord row : format.parse(reader)) {
                String weight = row.isMapped("weight") && row.isSet("weight")
                        ? row.get("weight").strip()
                        : "";
                entries.add(entry(row.get("text"), weight.isEmpty() ? 0 : Double.parseDouble(weight)));
            }
        }
        return entries;
    }

    /** An inline list: strings or {@code {text, weight}} maps; unweighted ones keep list order, as in the engine. */
    private static List<Entry> inline(JsonNode items) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            double order = items.size() - i;
            entries.add(
                    item.isObject()
                            ? entry(
                                    item.path("text").asText(),
                                    item.path("weight").asDouble(order))
                            : entry(item.asText(), order));
        }
        return entries;
    }

    private static Entry entry(String text, double weight) {
        return new Entry(text.strip(), TextFolding.fold(text.strip()), weight);
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
