package dev.autocomplete.server.reading;

import dev.autocomplete.server.engines.BudgetSpent;
import dev.autocomplete.server.engines.EngineCalls;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The engines of one product as one request's reader asks them: each param type goes to the engine that serves
 * it; span questions are asked in batches and remembered for the request; what the engines did is noted in
 * {@link EngineCalls}; no question is asked once the deadline has passed ({@link BudgetSpent}). One instance per
 * request; not thread-safe.
 */
final class ParamSources {

    /**
     * A question asked once per request: by its text, not its place. An engine's answer depends on the span's text
     * and the request (the same {@link Ask} for every span of a type), so a span repeated in the query (a cue and
     * its value typed again and again) costs one question, not one per place.
     */
    private record SpanKey(String type, String text) {}

    private final Map<String, GuardedEngine> engines;
    private final Query query;
    private final List<String> languages;
    /** The languages plug-in engines answer in ({@link ProductModel#engineLanguages}). */
    private final List<String> engineLanguages;

    private final EngineCalls calls;
    private final long deadlineNanos;
    private final Map<String, String> picked;
    private final Map<SpanKey, SpanMatch> spans = new HashMap<>();

    /**
     * @param engines the engine of each param type of the product
     * @param picked the texts of the params the client filled with a pick, by type
     */
    ParamSources(
            Map<String, GuardedEngine> engines,
            Query query,
            ProductModel model,
            EngineCalls calls,
            long deadlineNanos,
            Map<String, String> picked) {
        this.engines = engines;
        this.query = query;
        this.languages = query.languageFallbacks();
        this.engineLanguages = model.engineLanguages(languages);
        this.calls = calls;
        this.deadlineNanos = deadlineNanos;
        this.picked = Map.copyOf(picked);
    }

    /**
     * How the spans {@code [start, ends[i])} of {@code raw_query} read as values of {@code type}; asked in one
     * batch for those not asked before in this request.
     */
    SpanMatch[] match(String type, int start, int[] ends, Set<String> contextValues) {
        SpanMatch[] answers = new SpanMatch[ends.length];
        List<Integer> unasked = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < ends.length; i++) {
            String text = query.rawQuery().substring(start, ends[i]);
            answers[i] = spans.get(new SpanKey(type, text));
            if (answers[i] == null) {
                unasked.add(i);
                texts.add(text);
            }
        }
        if (unasked.isEmpty()) {
            return answers;
        }
        BudgetSpent.check(deadlineNanos);
        GuardedEngine engine = engines.get(type);
        List<SpanMatch> fresh =
                engine == null ? null : engine.match(ask(type, picked, query.optionLimit()), texts, calls);
        for (int k = 0; k < unasked.size(); k++) {
            int i = unasked.get(k);
            SpanMatch answer = fresh == null ? SpanMatch.NONE : fresh.get(k);
            if (!answer.kind().isValue() && contextValues.contains(TextFolding.fold(texts.get(k)))) {
                answer = SpanMatch.exact(texts.get(k).strip());
            }
            answers[i] = answer;
            spans.put(new SpanKey(type, texts.get(k)), answer);
        }
        return answers;
    }

    /** How one span reads as a value of {@code type}. */
    SpanMatch match(String type, int start, int end, Set<String> contextValues) {
        return match(type, start, new int[] {end}, contextValues)[0];
    }

    /** The options the engine of {@code type} offers for {@code typed}, given what is filled. */
    List<Option> options(String type, String typed, Map<String, String> filled, int limit) {
        GuardedEngine engine = engines.get(type);
        if (engine == null) {
            return List.of();
        }
        BudgetSpent.check(deadlineNanos);
        return engine.options(ask(type, filled, limit), typed, calls);
    }

    /** Whether the context's filters keep the option of this text for {@code type} (true when none applies). */
    boolean keeps(String type, String text, Map<String, String> filled) {
        GuardedEngine engine = engines.get(type);
        return engine == null || engine.keeps(ask(type, filled, 1), text);
    }

    /**
     * Which options of {@code type} the context's boosts favour, by text; null when the context boosts none (the
     * engine ranked those first, and re-ranking keeps them first).
     */
    Predicate<String> boosted(String type, Map<String, String> filled) {
        GuardedEngine engine = engines.get(type);
        return engine == null ? null : engine.boosted(ask(type, filled, 1));
    }

    /** Whether the context's filters apply to {@code type} (its attributes with {@code mode: filter}). */
    boolean filtered(String type, Map<String, String> filled) {
        GuardedEngine engine = engines.get(type);
        return engine != null && engine.filters(ask(type, filled, 1));
    }

    /** The options of {@code type} for what was typed as a request without {@code additional_context} gets them. */
    List<Option> withoutContext(String type, String typed, Map<String, String> filled, int limit) {
        GuardedEngine engine = engines.get(type);
        if (engine == null) {
            return List.of();
        }
        BudgetSpent.check(deadlineNanos);
        Ask ask =
                new Ask(type, languagesOf(engine), AdditionalContext.NONE, filled, query.today(), limit, deadlineNanos);
        return engine.options(ask, typed, calls);
    }

    private Ask ask(String type, Map<String, String> filled, int limit) {
        return new Ask(
                type, languagesOf(engines.get(type)), query.context(), filled, query.today(), limit, deadlineNanos);
    }

    private List<String> languagesOf(GuardedEngine engine) {
        return engine == null || engine.name().equals(GuardedEngine.CORE_SOURCE) ? languages : engineLanguages;
    }

    /** Texts of filled params: the picks plus values read so far, by type. */
    Map<String, String> filledWith(Map<String, String> read) {
        Map<String, String> all = new LinkedHashMap<>(picked);
        read.forEach(all::putIfAbsent);
        return all;
    }
}
