package dev.autocomplete.bench.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The official client's state machine (npm {@code @magicx-eng/ai-autocomplete-vanilla} 0.7.0, read from its
 * source map), reduced to what decides requests and taps: the filter base and substring filtering of the
 * active suggestion's options, when a keystroke fetches, how a tap rewrites the text, how
 * {@code raw_query}, {@code completed_params}, {@code identified_params} and {@code recently_suggested}
 * are built, and the auto-promotion of an option typed out in full. Assumes a slow typist: every keystroke
 * that may fetch does (no debounce merging). Not thread-safe.
 *
 * <p>As {@link Kind#EVERY_KEYSTROKE} it is instead the simplest other client the contract allows: it asks the
 * server at every keystroke and after every tap, shows the active suggestion's options as the server sent
 * them, sends no echoes ({@code identified_params}, {@code recently_suggested}) and promotes nothing itself:
 * a value typed out in full counts only when the server reads it as a {@code completed} identified param.
 */
final class SimulatedClient {

    /** Which client is simulated. */
    enum Kind {
        /** The official client: local filtering, fetch gating, echoes, auto-promotion. */
        OFFICIAL,
        /** A client that asks at every keystroke and sends no echoes. */
        EVERY_KEYSTROKE
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    record Option(String text, boolean tappable) {}

    record Suggestion(String type, String text, List<Option> options) {}

    record Param(String type, String text) {}

    private final Function<ObjectNode, JsonNode> transport;
    private final Kind kind;
    /** What the last answer read as {@code completed} identified params. */
    private List<Param> readCompleted = List.of();
    /** Prints every exchange when set (see KeystrokeSimulator's {@code bench.trace}). */
    private boolean trace;

    private final String sessionId = UUID.randomUUID().toString();
    private String text = "";
    private final List<Param> completed = new ArrayList<>();
    private List<Param> identified = List.of();
    private List<Suggestion> suggestions = List.of();
    private int filterBase;
    private boolean filterInProgress;
    private String lastRawQuery = "";
    private Integer spanAnchor;
    private List<Suggestion> spanSnapshot = List.of();
    private boolean ready;
    private int requests;
    /** Takes the pick events the official client posts (telemetry), or null: none are sent. */
    private java.util.function.Consumer<PickSent> picks;
    /** Characters the simulated user typed for the value being entered (since {@link #beginValue()}). */
    private int typedForValue;

    SimulatedClient(Function<ObjectNode, JsonNode> transport, Kind kind) {
        this.transport = transport;
        this.kind = kind;
    }

    /**
     * From now on, hands {@code sink} every pick event as the official client posts it to
     * {@code /api/telemetry/events} (its {@code selectOption} and {@code onAutoMatch}: the session id of its
     * requests, {@code raw_query} as built before the pick, the other options of the dropdown).
     */
    void onPick(java.util.function.Consumer<PickSent> sink) {
        picks = sink;
    }

    /**
     * A pick event as posted, with the simulation's own record of it: the param it filled and how many characters
     * the user typed for that param before it (not read back from {@code raw_query}).
     */
    record PickSent(ObjectNode event, String type, String option, int typed) {}

    /** The user starts typing the next value: counts its characters from here ({@link PickSent#typed()}). */
    void beginValue() {
        typedForValue = 0;
    }

    private void firePick(String type, String rawQuery, String selected, List<Option> shown) {
        if (picks == null) {
            return;
        }
        ObjectNode event = JSON.createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", sessionId)
                .put("type", "option")
                .put(
                        "at",
                        java.time.Instant.now()
                                .truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                                .toString());
        ObjectNode data =
                event.putObject("query_data").put("raw_query", rawQuery).put("selected_option", selected);
        ArrayNode others = data.putArray("other_options");
        shown.stream().map(Option::text).filter(text -> !text.equals(selected)).forEach(others::add);
        picks.accept(new PickSent(event, type, selected, typedForValue));
    }

    /** The first request a client makes, on the empty input. */
    void open() {
        fetch();
    }

    String text() {
        return text;
    }

    /**
     * The params the client holds as completed: its pills, and for a client that promotes nothing itself, the
     * identified params the server's last answer read as completed.
     */
    List<Param> completed() {
        List<Param> all = new ArrayList<>(completed);
        if (kind == Kind.EVERY_KEYSTROKE) {
            all.addAll(readCompleted);
        }
        return all;
    }

    /** The pills and the identified params the last answer read as completed, for either client. */
    List<Param> settled() {
        List<Param> all = new ArrayList<>(completed);
        all.addAll(readCompleted);
        return all;
    }

    Kind kind() {
        return kind;
    }

    /** From now on, prints each request's query and the answer's reading to standard output. */
    void trace() {
        trace = true;
    }

    boolean ready() {
        return ready;
    }

    int requests() {
        return requests;
    }

    /** The type of the active suggestion (the first that is not the placeholder), or null. */
    String activeType() {
        Suggestion active = active();
        return active == null ? null : active.type();
    }

    /** The options the dropdown shows now: the active suggestion's, filtered by what was typed. */
    List<Option> visibleOptions() {
        Suggestion active = active();
        if (active == null) {
            return List.of();
        }
        if (kind == Kind.EVERY_KEYSTROKE) {
            return active.options();
        }
        return filter(active.options(), filterQuery());
    }

    /** Types one character, then fetches when the client would. */
    void type(char c) {
        text = text + c;
        typedForValue++;
        maybeOpenPendingSpan();
        if (shouldFetch()) {
            fetch();
        }
    }

    /** Taps a visible option of the active suggestion. */
    void tap(Option option) {
        Suggestion active = active();
        firePick(active.type(), buildQuery().getKey(), option.text(), visibleOptions());
        String placeholderText = placeholderText();
        int base = effectiveBase();
        String prefix = text.substring(0, base);
        boolean inputWasEmpty = prefix.isEmpty() && text.isEmpty();
        boolean placeholderPrefix = prefix.isEmpty()
                && !text.isEmpty()
                && !placeholderText.isEmpty()
                && placeholderText.toLowerCase(Locale.ROOT).startsWith(text.toLowerCase(Locale.ROOT));
        if ((inputWasEmpty || placeholderPrefix) && !placeholderText.isEmpty()) {
            prefix = placeholderText + " ";
        }
        prefix = prefix.substring(0, prefix.length() - prefixOverlap(prefix, option.text()));
        boolean needsSpace = !prefix.isEmpty() && !prefix.endsWith(" ");
        String next = prefix + (needsSpace ? " " : "") + option.text() + " ";
        if (inputWasEmpty || placeholderPrefix) {
            next = Character.toUpperCase(next.charAt(0)) + next.substring(1);
        }
        int at = next.toLowerCase(Locale.ROOT).lastIndexOf(option.text().toLowerCase(Locale.ROOT));
        String inFinal = at >= 0 ? next.substring(at, at + option.text().length()) : option.text();
        text = next;
        filterBase = next.length();
        completed.add(new Param(active.type(), inFinal));
        spanAnchor = null;
        List<Suggestion> remaining = new ArrayList<>(suggestions);
        remaining.remove(active);
        boolean more = remaining.stream().anyMatch(s -> !s.type().equals("placeholder"));
        if (more && kind == Kind.OFFICIAL) {
            suggestions = remaining; // skipNextFetch: the next suggestion's options are already on screen
        } else {
            fetch();
        }
    }

    /** One more request with the current state, as a submit would see it; returns is_ready. */
    boolean check() {
        fetch();
        return ready;
    }

    private Suggestion active() {
        return suggestions.stream()
                .filter(s -> !s.type().equals("placeholder"))
                .findFirst()
                .orElse(null);
    }

    private List<Suggestion> actionable() {
        return suggestions.stream().filter(s -> !s.type().equals("placeholder")).toList();
    }

    private String placeholderText() {
        return String.join(
                " ",
                suggestions.stream()
                        .filter(s -> s.type().equals("placeholder"))
                        .map(Suggestion::text)
                        .toList());
    }

    private int effectiveBase() {
        int base = Math.min(filterBase, text.length());
        String placeholder = placeholderText();
        if (base > 0 || placeholder.isEmpty()) {
            return base;
        }
        return text.toLowerCase(Locale.ROOT).startsWith(placeholder.toLowerCase(Locale.ROOT))
                ? placeholder.length()
                : base;
    }

    private String filterQuery() {
        int base = effectiveBase();
        boolean serverContext = !lastRawQuery.isEmpty() || base > 0;
        return serverContext ? extractFilterQuery(base, filterInProgress) : "";
    }

    private String extractFilterQuery(int base, boolean inProgress) {
        String region = text.substring(base);
        if (inProgress || base == 0 || text.charAt(base - 1) == ' ') {
            return region;
        }
        int space = region.indexOf(' ');
        return space < 0 ? "" : region.substring(space + 1);
    }

    private static List<Option> filter(List<Option> options, String query) {
        String trimmed = query.stripLeading();
        if (trimmed.isEmpty()) {
            return options;
        }
        String lower = trimmed.toLowerCase(Locale.ROOT);
        return options.stream()
                .filter(o -> !o.tappable() || o.text().toLowerCase(Locale.ROOT).contains(lower))
                .toList();
    }

    private static Option exactMatch(List<Option> options, String query) {
        String trimmed = query.strip().toLowerCase(Locale.ROOT);
        if (trimmed.isEmpty()) {
            return null;
        }
        return options.stream()
                .filter(o -> o.tappable() && o.text().toLowerCase(Locale.ROOT).equals(trimmed))
                .findFirst()
                .orElse(null);
    }

    private boolean shouldFetch() {
        if (kind == Kind.EVERY_KEYSTROKE) {
            return true;
        }
        Suggestion active = active();
        String query = filterQuery();
        List<Option> tappable = active == null
                ? List.of()
                : filter(active.options(), query).stream()
                        .filter(Option::tappable)
                        .toList();
        boolean exact = active != null && exactMatch(active.options(), query) != null;
        if (!tappable.isEmpty() && !exact && !query.strip().isEmpty()) {
            return false;
        }
        String placeholder = placeholderText();
        return !(completed.isEmpty()
                && !text.isEmpty()
                && !placeholder.isEmpty()
                && placeholder.toLowerCase(Locale.ROOT).startsWith(text.toLowerCase(Locale.ROOT)));
    }

    private void maybeOpenPendingSpan() {
        if (kind == Kind.EVERY_KEYSTROKE || spanAnchor != null || actionable().isEmpty()) {
            return;
        }
        int anchor = Math.max(effectiveBase(), coveredEnd());
        if (!text.substring(Math.min(anchor, text.length())).isBlank()) {
            spanAnchor = anchor;
            spanSnapshot = actionable();
        }
    }

    /** The end of the last completed param in the text. */
    private int coveredEnd() {
        int end = 0;
        int from = 0;
        for (Param param : completed) {
            int at = text.indexOf(param.text(), from);
            if (at >= 0) {
                end = at + param.text().length();
                from = end;
            }
        }
        return end;
    }

    private void fetch() {
        requests++;
        Map.Entry<String, List<String>> built = buildQuery();
        String rawQuery = built.getKey();
        int textAtRequest = text.length();
        ObjectNode body = JSON.createObjectNode();
        ObjectNode data = body.putObject("data");
        data.put("raw_query", rawQuery);
        ArrayNode params = data.putArray("completed_params");
        for (int i = 0; i < completed.size(); i++) {
            params.addObject()
                    .put("placeholder", built.getValue().get(i))
                    .put("type", completed.get(i).type())
                    .put("text", completed.get(i).text())
                    .putNull("kind");
        }
        if (!identified.isEmpty()) {
            ArrayNode echo = data.putArray("identified_params");
            identified.forEach(p -> echo.addObject().put("type", p.type()).put("value", p.text()));
        }
        if (spanAnchor != null) {
            ArrayNode recent = data.putArray("recently_suggested");
            Set<String> seen = new LinkedHashSet<>();
            List<Suggestion> union = new ArrayList<>(spanSnapshot);
            union.addAll(actionable());
            for (Suggestion s : union) {
                if (seen.add(s.type())) {
                    recent.addObject().put("type", s.type()).put("text", s.text());
                }
            }
        }
        body.putObject("meta")
                .put("request_id", UUID.randomUUID().toString())
                .put("request_at", "2026-11-22T10:15:30Z")
                .put("session_id", sessionId)
                .put("language", "en-US");
        JsonNode response = transport.apply(body).path("data");
        if (trace) {
            System.out.printf(
                    Locale.ROOT,
                    "    %-40s -> ready %s, input %s, %s%n",
                    "\"" + rawQuery + "\"",
                    response.path("is_ready").asBoolean(),
                    response.path("input"),
                    summary(response));
        }

        List<Suggestion> next = new ArrayList<>();
        for (JsonNode s : response.path("suggestions")) {
            List<Option> options = new ArrayList<>();
            for (JsonNode o : s.path("options")) {
                options.add(new Option(
                        o.path("text").asText(), o.path("is_tappable").asBoolean()));
            }
            next.add(new Suggestion(s.path("type").asText(), s.path("text").asText(), options));
        }
        List<Param> candidates = new ArrayList<>();
        List<Param> settled = new ArrayList<>();
        JsonNode input = response.path("input");
        JsonNode last = null;
        for (JsonNode item : input) {
            last = item;
            if ("identified".equals(item.path("source").asText())) {
                candidates.add(
                        new Param(item.path("type").asText(), item.path("text").asText()));
                if ("completed".equals(item.path("state").asText())) {
                    settled.add(new Param(
                            item.path("type").asText(), item.path("text").asText()));
                }
            }
        }
        if (last != null && "in_progress".equals(last.path("state").asText())) {
            filterInProgress = true;
            int at = text.toLowerCase(Locale.ROOT)
                    .lastIndexOf(last.path("text").asText().toLowerCase(Locale.ROOT));
            filterBase = at >= 0 ? at : textAtRequest;
        } else {
            filterInProgress = false;
            filterBase = textAtRequest;
        }
        suggestions = next;
        readCompleted = settled;
        if (kind == Kind.EVERY_KEYSTROKE) {
            ready = response.path("is_ready").asBoolean(false);
            lastRawQuery = rawQuery;
            return;
        }
        Suggestion active = active();
        if (active != null) {
            Option match = exactMatch(
                    active.options(), extractFilterQuery(Math.min(filterBase, text.length()), filterInProgress));
            if (match != null) {
                firePick(active.type(), rawQuery, match.text(), active.options());
                completed.add(new Param(active.type(), match.text()));
                List<Suggestion> remaining = new ArrayList<>(suggestions);
                remaining.remove(active);
                suggestions = remaining;
            }
        }
        identified = reconcile(candidates);
        ready = response.path("is_ready").asBoolean(false);
        lastRawQuery = rawQuery;
        if (spanAnchor != null
                && (text.substring(Math.min(spanAnchor, text.length())).isBlank()
                        || coveredEnd() >= text.strip().length())) {
            spanAnchor = null;
        }
    }

    /** The answer's suggestions: type, and the first five options of the active one. */
    private static String summary(JsonNode response) {
        List<String> out = new ArrayList<>();
        boolean first = true;
        for (JsonNode s : response.path("suggestions")) {
            String type = s.path("type").asText();
            if (first && !type.equals("placeholder")) {
                List<String> options = new ArrayList<>();
                for (JsonNode o : s.path("options")) {
                    if (options.size() < 5) {
                        options.add(o.path("text").asText());
                    }
                }
                out.add(type + options);
                first = false;
            } else {
                out.add(type);
            }
        }
        return "suggestions " + out;
    }

    /** Identified readings whose text is still in the text outside completed params. */
    private List<Param> reconcile(List<Param> candidates) {
        String free = text;
        for (Param param : completed) {
            int at = free.indexOf(param.text());
            if (at >= 0) {
                free = free.substring(0, at)
                        + "\u0000".repeat(param.text().length())
                        + free.substring(at + param.text().length());
            }
        }
        List<Param> valid = new ArrayList<>();
        for (Param candidate : candidates) {
            if (free.contains(candidate.text())) {
                valid.add(candidate);
            }
        }
        return valid;
    }

    /** The client's buildQuery: each completed param's text replaced by its minted token, in order. */
    private Map.Entry<String, List<String>> buildQuery() {
        String result = text;
        Map<String, Integer> counts = new java.util.HashMap<>();
        List<String> placeholders = new ArrayList<>();
        int pos = 0;
        for (Param param : completed) {
            int count = counts.merge(param.type(), 1, Integer::sum);
            String token = "{{" + param.type().toUpperCase(Locale.ROOT).replaceAll("\\s+", "_") + "_" + count + "}}";
            int index = result.indexOf(param.text(), pos);
            if (index < 0) {
                index = result.indexOf(param.text());
            }
            if (index >= 0) {
                result = result.substring(0, index)
                        + token
                        + result.substring(index + param.text().length());
                pos = index + token.length();
            }
            placeholders.add(token);
        }
        return Map.entry(result, placeholders);
    }

    /** The client's findPrefixOverlap: trailing words of the prefix that start the option's text. */
    private static int prefixOverlap(String prefix, String option) {
        String trimmed = prefix.stripTrailing().replaceAll("\\s+", " ");
        if (trimmed.isEmpty() || option.isEmpty()) {
            return 0;
        }
        String[] words = trimmed.split(" ");
        String lower = option.toLowerCase(Locale.ROOT);
        for (int i = 0; i < words.length; i++) {
            String candidate = String.join(" ", java.util.Arrays.copyOfRange(words, i, words.length));
            if (lower.startsWith(candidate.toLowerCase(Locale.ROOT))) {
                return prefix.length() - (trimmed.length() - candidate.length());
            }
        }
        return 0;
    }
}
