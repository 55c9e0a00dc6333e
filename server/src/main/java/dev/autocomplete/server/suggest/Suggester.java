package dev.autocomplete.server.suggest;

import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.engines.EngineCalls;
import dev.autocomplete.server.engines.EngineOutcome;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.learning.Learning;
import dev.autocomplete.server.protocol.Offered;
import dev.autocomplete.server.protocol.Placeholders;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.reading.Priors;
import dev.autocomplete.server.reading.Query;
import dev.autocomplete.server.reading.QueryReader;
import dev.autocomplete.server.reading.Reading;
import dev.autocomplete.server.reading.ReadingState;
import dev.autocomplete.server.reading.Segment;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.spi.Option;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The core of {@code /api/suggest}: turns a validated request into a {@link Query}, reads it with the product's
 * engines, and builds the response from the reading: {@code data.input}, {@code is_ready}, dismissal filtering and
 * limits. Stateless and thread-safe.
 */
public final class Suggester {

    private static final String PLACEHOLDER_TYPE = "placeholder";
    private static final Reading NO_READING = new Reading(null, List.of(), null, List.of());

    private final EngineRunner runner;
    private final ResponseCache cache;
    private final Today today;
    private final Learning learning;

    /** A suggester that does not learn. */
    public Suggester(EngineRunner runner, ResponseCache cache, Clock clock) {
        this(runner, cache, clock, null);
    }

    /**
     * @param clock says what "today" is in each product's time zone
     * @param learning ranks options by what users picked, and remembers what each session was offered; null for none
     */
    public Suggester(EngineRunner runner, ResponseCache cache, Clock clock, Learning learning) {
        this.runner = runner;
        this.cache = cache;
        this.today = new Today(clock);
        this.learning = learning;
    }

    /** How the response cache took part in a request. */
    public enum CacheLookup {
        /**
         * The product's responses are not cached (caching off, or an engine that must not be cached), or the body is
         * of an unusual shape ({@code data} or {@code meta} twice, say: {@link SuggestRequestReader#keyed}).
         */
        NONE,
        /** Answered from the cache: no engine was asked. */
        HIT,
        /** Not in the cache: the engines were asked. */
        MISS
    }

    /**
     * What came of one request, for the caller to answer with, count and log.
     *
     * @param request the body, read (from the cache on a hit: only its envelope and echo read from this body)
     * @param response the response, its envelope set
     * @param engine what came of asking the engines, or null when none was asked (a cache hit)
     * @param engineNanos time spent waiting for the engines (0 when none was asked)
     * @param cache how the response cache took part
     * @param engineUses what each engine asked did, for metrics (empty when none was asked)
     * @param engineQuestions questions the reading asked the engines (0 when none was asked), for the rate limit
     */
    public record Outcome(
            SuggestRequest request,
            SuggestResponse response,
            EngineOutcome engine,
            long engineNanos,
            CacheLookup cache,
            List<EngineCalls.Use> engineUses,
            int engineQuestions) {

        /** The engine outcome when it was not {@code OK}: the reason a fallback (or a partial answer) was given. */
        public String fallback() {
            return engine == null || engine == EngineOutcome.OK ? null : engine.label();
        }
    }

    /** An answer, whether it may be kept in the cache, and what the engines did for it. */
    private record Answer(SuggestResponse response, boolean keep, EngineRunner.Result<Reading> engines) {}

    /** The response cache, for metrics. */
    public ResponseCache cache() {
        return cache;
    }

    /**
     * Answers a body: from the response cache when it holds an answer for the body's {@code data}
     * ({@link SuggestRequestReader#keyed}, which reads no more than the envelope), else read whole and answered.
     *
     * @param client the client's address as the per-client limits count it: asked only for a session seen first
     *     (new sessions remembered for the honest-pick check are counted per client)
     * @throws dev.autocomplete.server.protocol.ApiException when the body is not a valid suggest body
     */
    public Outcome suggest(Caller caller, byte[] body, SuggestRequestReader reader, Supplier<String> client) {
        Product product = caller.product();
        LocalDate today = this.today.in(product.zone());
        Priors priors = learning == null || !caller.tenant().learn()
                ? Priors.NONE
                : learning.priors(caller.tenant().id(), product.slug());
        SuggestRequestReader.Keyed keyed = cache.caches(product) ? reader.keyed(body) : null;
        ResponseCache.Lookup cached = cache.find(product, keyed, today, priors.generation());
        SuggestRequest request;
        Answer fresh;
        if (cached.hit() != null) {
            request = keyed.request(cached.hit().request());
            fresh = null;
        } else {
            request = reader.read(body);
            fresh = answer(caller, request, today, priors);
            if (fresh.keep()) {
                // Sent as kept: its data is written once, for this request and every hit.
                fresh = new Answer(cache.put(cached, request, fresh.response()), true, fresh.engines());
            }
        }
        SuggestResponse response = fresh == null ? cached.hit().response() : fresh.response();
        CacheLookup lookup =
                cached.key() == null ? CacheLookup.NONE : fresh == null ? CacheLookup.HIT : CacheLookup.MISS;
        EngineRunner.Result<Reading> engines = fresh == null ? null : fresh.engines();
        String sessionId = request.sessionId();
        if (sessionId == null) {
            sessionId = SessionIds.next();
            if (learning != null) {
                learning.offeredToNewSession(
                        new Learning.ProductRef(caller.tenant().id(), product.slug()), sessionId, response.offered());
            }
        } else if (learning != null) {
            learning.offered(
                    new Learning.ProductRef(caller.tenant().id(), product.slug()),
                    sessionId,
                    response.offered(),
                    client);
        }
        return new Outcome(
                request,
                response.withEnvelope(request.requestId(), request.requestAt(), sessionId),
                engines == null ? null : engines.outcome(),
                engines == null ? 0 : engines.engineNanos(),
                lookup,
                engines == null ? List.of() : engines.calls().uses(),
                engines == null ? 0 : engines.calls().questions());
    }

    private Answer answer(Caller caller, SuggestRequest request, LocalDate today, Priors priors) {
        Product product = caller.product();
        List<Segment> segments = segments(request, product.model().paramTypes());
        Query query = new Query(
                request.rawQuery(),
                segments,
                request.dismissedTypes(),
                request.recentlySuggested(),
                request.additionalContext(),
                request.language(),
                product.maxOptions(),
                today,
                priors);
        Map<String, String> picked = new HashMap<>();
        for (Segment segment : segments) {
            if (segment instanceof Segment.Param param && !param.masked()) {
                picked.putIfAbsent(param.type(), param.text());
            }
        }
        EngineRunner.Work<Reading> read = (calls, deadline) ->
                QueryReader.read(product.model(), query, product.enginesByType(), calls, deadline, picked);
        String name = caller.tenant().id() + "/" + product.slug();
        // The core's own option lists alone are read on this thread; a plug-in engine's reading gets one of its own.
        EngineRunner.Result<Reading> result = product.coreOnly()
                ? runner.runHere(name, product.limits().budget(), read)
                : runner.run(name, product.limits().budget(), read);
        if (result.failed()) {
            return new Answer(fallback(request, segments, product), false, result);
        }
        Reading reading = result.value();
        List<Reading.Identified> identified = validIdentified(reading.identified(), segments, request.rawQuery());
        boolean engineFailed = result.calls().failed();
        SuggestResponse response = new SuggestResponse(
                request.rawQuery(),
                input(request.rawQuery(), segments, reading, identified),
                suggestions(reading, segments, request, product),
                ready(reading, segments, identified),
                null,
                null,
                null);
        if (learning != null && caller.tenant().learn()) {
            response = response.withOffered(offered(response, reading, product));
        }
        return new Answer(response, result.calls().cacheable(), result);
    }

    /**
     * The answer when the reading failed, timed out or the tenant went away: the product's fallback prompt with
     * its hints as rows that cannot be tapped, the tokens echoed, never ready.
     */
    private static SuggestResponse fallback(SuggestRequest request, List<Segment> segments, Product product) {
        List<SuggestResponse.Option> hints = product.limits().fallbackHints().stream()
                .map(hint -> new SuggestResponse.Option(hint, false))
                .toList();
        return new SuggestResponse(
                request.rawQuery(),
                input(request.rawQuery(), segments, NO_READING, List.of()),
                List.of(new SuggestResponse.Suggestion(
                        PLACEHOLDER_TYPE, product.limits().fallbackPrompt(), false, hints)),
                false,
                null,
                null,
                null);
    }

    /** Splits {@code raw_query} into text and tokens; a token without an entry gets its type by name. */
    static List<Segment> segments(SuggestRequest request, Set<String> productTypes) {
        String raw = request.rawQuery();
        List<Segment> segments = new ArrayList<>();
        int at = 0;
        for (Placeholders.Token token : Placeholders.find(raw)) {
            if (token.start() > at) {
                segments.add(new Segment.Text(at, raw.substring(at, token.start())));
            }
            SuggestRequest.Fill fill = request.fills().get(token.token());
            if (fill != null) {
                // An entry's type the product has only in another case ('Assignee') fills that type; one it does
                // not have at all fills nothing and is reported need_confirmation (protocol notes 11: an unknown type).
                String type =
                        productTypes.contains(fill.type()) ? fill.type() : typeForName(token.name(), productTypes);
                boolean known = productTypes.contains(type);
                segments.add(new Segment.Param(
                        token.start(), token.token(), known ? type : fill.type(), fill.text(), known));
            } else {
                segments.add(new Segment.Param(
                        token.start(), token.token(), typeForName(token.name(), productTypes), null, false));
            }
            at = token.end();
        }
        if (at < raw.length()) {
            segments.add(new Segment.Text(at, raw.substring(at)));
        }
        return segments;
    }

    /** docs/protocol.md §3.8: a token without an entry is typed by its NAME, matched against the types. */
    private static String typeForName(String name, Set<String> productTypes) {
        return productTypes.stream()
                .filter(type -> Placeholders.mintedName(type).equals(name))
                .min(Comparator.naturalOrder())
                .orElse(name.toLowerCase(Locale.ROOT));
    }

    /** Keeps identified spans that lie inside typed text and do not overlap. */
    private static List<Reading.Identified> validIdentified(
            List<Reading.Identified> spans, List<Segment> segments, String raw) {
        List<Reading.Identified> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingInt(Reading.Identified::start));
        List<Reading.Identified> valid = new ArrayList<>();
        int lastEnd = -1;
        for (Reading.Identified span : sorted) {
            boolean insideText = span.end() <= raw.length()
                    && segments.stream()
                            .anyMatch(s ->
                                    s instanceof Segment.Text && s.start() <= span.start() && span.end() <= s.end());
            if (insideText && span.start() >= lastEnd) {
                valid.add(span);
                lastEnd = span.end();
            }
        }
        return valid;
    }

    /** docs/protocol.md §4.3: null without tokens; else the intent, then tokens and identified spans in query order. */
    private static List<SuggestResponse.InputSegment> input(
            String raw, List<Segment> segments, Reading reading, List<Reading.Identified> identified) {
        List<Segment.Param> tokens = new ArrayList<>();
        for (Segment segment : segments) {
            if (segment instanceof Segment.Param token) {
                tokens.add(token);
            }
        }
        if (tokens.isEmpty()) {
            return null;
        }
        ReadingState intentState = reading.intent() == null
                ? ReadingState.IN_PROGRESS
                : reading.intent().state();
        List<SuggestResponse.InputSegment> input = new ArrayList<>();
        input.add(new SuggestResponse.InputSegment(
                "intent", raw.substring(0, tokens.getFirst().start()), intentState.wireName(), null));
        int next = 0;
        for (Segment.Param token : tokens) {
            while (next < identified.size() && identified.get(next).start() < token.start()) {
                input.add(identifiedSegment(raw, identified.get(next++)));
            }
            ReadingState state = token.confirmed() ? ReadingState.COMPLETED : ReadingState.NEED_CONFIRMATION;
            input.add(
                    new SuggestResponse.InputSegment(token.type(), token.placeholder(), state.wireName(), "selected"));
        }
        while (next < identified.size()) {
            input.add(identifiedSegment(raw, identified.get(next++)));
        }
        return input;
    }

    private static SuggestResponse.InputSegment identifiedSegment(String raw, Reading.Identified span) {
        return new SuggestResponse.InputSegment(
                span.type(),
                raw.substring(span.start(), span.end()),
                span.state().wireName(),
                "identified");
    }

    /**
     * docs/protocol.md §4.4: the prompt first, then the params the reading proposes (never filled ones or dismissed
     * optional ones), without repeats; options cut to the product's limit (the reader already put the ones the context
     * names first).
     */
    private static List<SuggestResponse.Suggestion> suggestions(
            Reading reading, List<Segment> segments, SuggestRequest request, Product product) {
        List<SuggestResponse.Suggestion> suggestions = new ArrayList<>();
        if (reading.prompt() != null && !reading.prompt().isBlank()) {
            suggestions.add(new SuggestResponse.Suggestion(PLACEHOLDER_TYPE, reading.prompt(), false, List.of()));
        }
        // Filled params and dismissed optional ones are not among the reading's suggestions (QueryReader.openParams
        // is the one filter); this drops only repeats and the placeholder type.
        Set<String> emitted = new HashSet<>();
        for (Reading.ParamSuggestion suggestion : reading.suggestions()) {
            String type = suggestion.type();
            if (type.equals(PLACEHOLDER_TYPE) || !emitted.add(type)) {
                continue;
            }
            List<SuggestResponse.Option> options = new ArrayList<>();
            for (Option option : suggestion.options()) {
                if (options.size() < product.maxOptions() && !shows(options, option.text())) {
                    options.add(new SuggestResponse.Option(option.text(), option.tappable()));
                }
            }
            suggestions.add(new SuggestResponse.Suggestion(type, suggestion.label(), suggestion.required(), options));
        }
        return suggestions;
    }

    /**
     * Whether {@code options} has one of that text: a scan, as a list holds at most {@code max_options} (10 unless
     * configured, 50 at most); a set of the texts hashed every option's new text (1 % of an uncached answer).
     */
    private static boolean shows(List<SuggestResponse.Option> options, String text) {
        for (SuggestResponse.Option option : options) {
            if (option.text().equals(text)) {
                return true;
            }
        }
        return false;
    }

    /**
     * What an answer offered that picks may be credited to: each suggestion's tappable options, less those the
     * context supplied (never learned from). Those of params that do not learn are kept: their picks are counted for
     * analytics, never ranked by ({@link Learning.Outcome#NOT_LEARNED}).
     */
    private static Offered offered(SuggestResponse response, Reading reading, Product product) {
        Map<String, Set<String>> fromContext = new HashMap<>();
        reading.suggestions().forEach(s -> fromContext.put(s.type(), s.fromContext()));
        List<Offered.Offer> offers = new ArrayList<>();
        boolean first = true;
        for (SuggestResponse.Suggestion suggestion : response.suggestions()) {
            if (suggestion.type().equals(PLACEHOLDER_TYPE)) {
                continue;
            }
            Set<String> excluded = fromContext.getOrDefault(suggestion.type(), Set.of());
            long[] hashes = new long[suggestion.options().size()];
            int count = 0;
            for (SuggestResponse.Option option : suggestion.options()) {
                if (option.tappable() && !excluded.contains(option.text())) {
                    hashes[count++] = Offered.hashFolded(option.text());
                }
            }
            hashes = count == hashes.length ? hashes : Arrays.copyOf(hashes, count);
            offers.add(new Offered.Offer(suggestion.type(), first && hashes.length > 0, hashes));
            first &= hashes.length == 0;
        }
        return Offered.of(offers);
    }

    /** docs/protocol.md §4.5: an intent is recognized and each required param is selected or identified completed. */
    private static boolean ready(Reading reading, List<Segment> segments, List<Reading.Identified> identified) {
        if (reading.intent() == null || reading.intent().state() != ReadingState.COMPLETED) {
            return false;
        }
        Set<String> filled = new HashSet<>();
        segments.forEach(s -> {
            if (s instanceof Segment.Param param && param.confirmed()) {
                filled.add(param.type());
            }
        });
        identified.stream().filter(s -> s.state() == ReadingState.COMPLETED).forEach(s -> filled.add(s.type()));
        return filled.containsAll(reading.intent().requiredTypes());
    }
}
