package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import dev.autocomplete.engine.catalog.CatalogModel.Intent;
import dev.autocomplete.engine.catalog.CatalogModel.Param;
import dev.autocomplete.engine.catalog.Words.Word;
import dev.autocomplete.spi.ContextNames;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;
import dev.autocomplete.spi.ReadingState;
import dev.autocomplete.spi.Segment;
import dev.autocomplete.spi.TextFolding;

/**
 * Reads one query against a catalog model: which intent, which free-typed spans are param values, which
 * param the user is typing into, and what to suggest next. One instance per request; not thread-safe.
 */
final class QueryReader {

    /** Free-typed values longer than this many words are read by their last words only. */
    private static final int MAX_VALUE_WORDS = 12;

    private final CatalogModel model;
    private final Query query;
    private final Set<String> allTypes;
    private final List<List<Word>> blocks = new ArrayList<>();
    private final boolean endsWithText;
    private final boolean leadingIsText;

    /** A free-typed span read as a value of {@code param}; {@code option} is the matched option, or -1. */
    private record Read(Param param, int start, int end, ReadingState state, int option) {
    }

    /** What one intent makes of the query. */
    private record IntentReading(Intent intent, List<Read> reads, Param active, String activePrefix) {
    }

    QueryReader(CatalogModel model, Query query, Set<String> allTypes) {
        this.model = model;
        this.query = query;
        this.allTypes = allTypes;
        List<Segment> segments = query.segments();
        for (Segment segment : segments) {
            if (segment instanceof Segment.Text text) {
                blocks.add(Words.of(text));
            }
        }
        endsWithText = !segments.isEmpty() && segments.getLast() instanceof Segment.Text;
        leadingIsText = !segments.isEmpty() && segments.getFirst() instanceof Segment.Text;
    }

    Reading read() {
        if (query.rawQuery().isBlank()) {
            Intent first = model.intents().getFirst();
            IntentReading nothing = new IntentReading(first, List.of(), null, "");
            return new Reading(null, List.of(), model.prompt().in(languages()), suggestions(nothing));
        }
        List<Word> leading = leadingIsText ? blocks.getFirst() : List.of();
        for (Intent intent : model.intents()) {
            int consumed = phraseWords(intent, leading, languages());
            if (consumed >= 0) {
                return reading(readWith(intent, consumed), ReadingState.COMPLETED);
            }
        }
        for (Intent intent : model.intents()) {
            int consumed = typoPhraseWords(intent, leading, languages());
            if (consumed >= 0) {
                return reading(readWith(intent, consumed), ReadingState.NEED_CONFIRMATION);
            }
        }
        String typed = Words.join(leading, 0, leading.size());
        if (query.params().isEmpty() && typed.indexOf(' ') > 0) {
            // Several words that start a phrase: the user is typing the intent, not a value.
            for (Intent intent : model.intents()) {
                if (intent.phrasesIn(languages()).stream().anyMatch(p -> p.startsWith(typed))) {
                    return reading(readWith(intent, leading.size()), ReadingState.IN_PROGRESS);
                }
            }
        }
        List<IntentReading> fitting = new ArrayList<>();
        for (Intent intent : model.intents()) {
            IntentReading reading = readWith(intent, 0);
            if (fits(reading)) {
                fitting.add(reading);
            }
        }
        if (!fitting.isEmpty()) {
            ReadingState state = fitting.size() == 1 ? ReadingState.COMPLETED : ReadingState.NEED_CONFIRMATION;
            return reading(fitting.getFirst(), state);
        }
        for (Intent intent : model.intents()) {
            if (!typed.isEmpty() && intent.phrasesIn(languages()).stream().anyMatch(p -> p.startsWith(typed))) {
                return reading(readWith(intent, leading.size()), ReadingState.IN_PROGRESS);
            }
        }
        return reading(readWith(model.intents().getFirst(), 0), ReadingState.IN_PROGRESS);
    }

    private Reading reading(IntentReading reading, ReadingState intentState) {
        List<String> required = reading.intent().params().stream()
                .filter(p -> p.required() && applies(p, reading))
                .map(Param::type)
                .toList();
        List<Reading.Identified> identified = reading.reads().stream()
                .map(r -> new Reading.Identified(r.param().type(), r.start(), r.end(), r.state()))
                .toList();
        return new Reading(new Reading.Intent(reading.intent().name(), intentState, required), identified, null,
                suggestions(reading));
    }

    /** Decision 18: an intent fits when every token is one of its params and something was read or filled. */
    private boolean fits(IntentReading reading) {
        Set<String> types = new HashSet<>();
        reading.intent().params().forEach(p -> types.add(p.type()));
        List<Segment.Param> tokens = query.params();
        boolean allTokensFit = tokens.stream().allMatch(t -> types.contains(t.type()));
        return allTokensFit && (!tokens.isEmpty() || !reading.reads().isEmpty());
    }

    /** How many leading words an intent phrase covers, or -1 when the text does not start with one. */
    private static int phraseWords(Intent intent, List<Word> leading, List<String> languages) {
        for (String phrase : intent.phrasesIn(languages)) {
            StringBuilder joined = new StringBuilder();
            for (int i = 0; i < leading.size() && joined.length() < phrase.length(); i++) {
                if (i > 0) {
                    joined.append(' ');
                }
                joined.append(leading.get(i).folded());
                if (joined.toString().equals(phrase)) {
                    return i + 1;
                }
            }
        }
        return -1;
    }

    /** How many leading words read as a phrase with typos the rules allow, or -1. */
    private static int typoPhraseWords(Intent intent, List<Word> leading, List<String> languages) {
        for (String phrase : intent.phrasesIn(languages)) {
            StringBuilder joined = new StringBuilder();
            for (int i = 0; i < leading.size() && joined.length() <= phrase.length() + 2; i++) {
                if (i > 0) {
                    joined.append(' ');
                }
                joined.append(leading.get(i).folded());
                if (Typos.distance(joined.toString(), phrase) < Typos.NEVER) {
                    return i + 1;
                }
            }
        }
        return -1;
    }

    private IntentReading readWith(Intent intent, int skipLeading) {
        List<Read> reads = new ArrayList<>();
        Param active = null;
        String activePrefix = "";
        for (int b = 0; b < blocks.size(); b++) {
            List<Word> words = blocks.get(b);
            int from = b == 0 && leadingIsText ? Math.min(skipLeading, words.size()) : 0;
            boolean lastBlock = b == blocks.size() - 1 && endsWithText;
            int pieceStart = from;
            Param cued = null;
            int i = from;
            while (i <= words.size()) {
                int cueLength = i < words.size() ? cueAt(intent, words, i, reads, pieceStart, cued) : 0;
                if (i == words.size() || cueLength > 0) {
                    boolean trailing = lastBlock && i == words.size();
                    Param piece = readPiece(intent, words, pieceStart, i, cued, trailing, reads);
                    if (trailing && piece != null) {
                        active = piece;
                        Read last = reads.isEmpty() ? null : reads.getLast();
                        boolean typing = last != null && last.state() != ReadingState.COMPLETED
                                && last.param() == piece && last.end() == words.getLast().end();
                        activePrefix = typing ? foldedSpan(last) : "";
                    }
                    if (i == words.size()) {
                        break;
                    }
                    cued = cueParam(intent, words, i, reads);
                    i += cueLength;
                    pieceStart = i;
                } else {
                    i++;
                }
            }
        }
        return new IntentReading(intent, List.copyOf(reads), active, activePrefix);
    }

    /**
     * Reads the words {@code [from, to)} introduced by {@code cued} (null when no cue word introduced them).
     * Returns the param the user is still typing into when this is the trailing piece, else null.
     */
    private Param readPiece(Intent intent, List<Word> words, int from, int to, Param cued, boolean trailing,
            List<Read> reads) {
        if (from >= to) {
            return trailing && cued != null ? cued : null;
        }
        int start = Math.max(from, to - MAX_VALUE_WORDS);
        List<Param> candidates = cued != null ? List.of(cued) : uncuedCandidates(intent, reads, trailing);
        for (Param param : candidates) {
            for (int length = to - start; length >= 1; length--) {
                for (int s = start; s + length <= to; s++) {
                    int option = param.translations().exactMatch(Words.join(words, s, s + length), languages());
                    if (option >= 0) {
                        reads.add(new Read(param, words.get(s).start(), words.get(s + length - 1).end(),
                                ReadingState.COMPLETED, option));
                        Param rest = readPiece(intent, words, s + length, to, null, trailing, reads);
                        return rest != null ? rest : null;
                    }
                }
            }
        }
        for (Param param : candidates) {
            for (int s = start; s < to; s++) {
                if (param.translations().hasPrefix(Words.join(words, s, to), languages())) {
                    ReadingState state = trailing ? ReadingState.IN_PROGRESS : ReadingState.NEED_CONFIRMATION;
                    reads.add(new Read(param, words.get(s).start(), words.get(to - 1).end(), state, -1));
                    return trailing ? param : null;
                }
            }
        }
        // A typo-level reading is never settled: need_confirmation, trailing or not.
        for (Param param : candidates) {
            for (int s = start; s < to; s++) {
                if (param.translations().hasTypoMatch(Words.join(words, s, to), languages())) {
                    reads.add(new Read(param, words.get(s).start(), words.get(to - 1).end(),
                            ReadingState.NEED_CONFIRMATION, -1));
                    return trailing ? param : null;
                }
            }
        }
        return null;
    }

    /** Params an uncued value may belong to: the ones on screen first, then the next to fill, then the rest. */
    private List<Param> uncuedCandidates(Intent intent, List<Read> reads, boolean trailing) {
        IntentReading sofar = new IntentReading(intent, reads, null, "");
        Set<Param> candidates = new LinkedHashSet<>();
        if (trailing) {
            for (Query.SuggestionRef ref : query.recentlySuggested()) {
                Param param = intent.param(ref.type());
                if (param != null && !filled(param, sofar) && applies(param, sofar)) {
                    candidates.add(param);
                }
            }
        }
        candidates.addAll(openParams(sofar));
        return List.copyOf(candidates);
    }

    /** Length in words of a cue at {@code i} that introduces an open param, or 0. */
    private int cueAt(Intent intent, List<Word> words, int i, List<Read> reads, int pieceStart, Param current) {
        Param param = cueParam(intent, words, i, reads);
        if (param == null) {
            return 0;
        }
        if (current != null && i > pieceStart
                && current.translations().hasPrefix(Words.join(words, pieceStart, i + 1), languages())) {
            return 0;
        }
        for (String cue : param.cuesIn(languages())) {
            int length = cue.split(" ").length;
            if (i + length <= words.size() && Words.join(words, i, i + length).equals(cue)) {
                return length;
            }
        }
        return 0;
    }

    private Param cueParam(Intent intent, List<Word> words, int i, List<Read> reads) {
        IntentReading sofar = new IntentReading(intent, reads, null, "");
        for (Param param : intent.params()) {
            if (filled(param, sofar)) {
                continue;
            }
            for (String cue : param.cuesIn(languages())) {
                int length = cue.split(" ").length;
                if (i + length <= words.size() && Words.join(words, i, i + length).equals(cue)) {
                    return param;
                }
            }
        }
        return null;
    }

    /** Applicable params not yet filled: required ones first, then optional ones not dismissed. */
    private List<Param> openParams(IntentReading reading) {
        List<Param> open = new ArrayList<>();
        for (boolean required : new boolean[] {true, false}) {
            for (Param param : reading.intent().params()) {
                if (param.required() == required && applies(param, reading) && !filled(param, reading)
                        && (required || !query.dismissedTypes().contains(param.type()))) {
                    open.add(param);
                }
            }
        }
        return open;
    }

    private List<Reading.ParamSuggestion> suggestions(IntentReading reading) {
        Set<Param> order = new LinkedHashSet<>();
        if (reading.active() != null && !filled(reading.active(), reading)) {
            order.add(reading.active());
        }
        order.addAll(openParams(reading));
        Map<OptionCatalog, Set<String>> picked = picked(reading);
        List<Reading.ParamSuggestion> suggestions = new ArrayList<>();
        for (Param param : order) {
            Set<String> taken = picked.getOrDefault(param.catalog(), Set.of());
            IntPredicate excluded = option -> taken.contains(param.catalog().foldedText(option));
            String prefix = param == reading.active() ? reading.activePrefix() : "";
            suggestions.add(new Reading.ParamSuggestion(param.type(), param.label().in(languages()),
                    param.required(), options(param, prefix, excluded)));
        }
        return suggestions;
    }

    private List<Reading.Option> options(Param param, String prefix, IntPredicate excluded) {
        OptionCatalog catalog = param.catalog();
        int limit = query.optionLimit();
        Set<Integer> chosen = new LinkedHashSet<>();
        if (prefix.isEmpty()) {
            // Options the context names are candidates too (the server moves them first); all by weight.
            List<Integer> candidates = new ArrayList<>(catalog.top(limit, excluded));
            for (String name : ContextNames.forParam(query.additionalContext(), param.type(), allTypes)) {
                for (int option : param.translations().named(name, languages())) {
                    if (!excluded.test(option) && !candidates.contains(option) && candidates.size() < 2 * limit) {
                        candidates.add(option);
                    }
                }
            }
            candidates.sort(java.util.Comparator.comparingDouble(catalog::weight).reversed());
            for (String name : contextValues(param)) {
                for (int option : param.translations().named(name, languages())) {
                    if (!excluded.test(option)) {
                        chosen.add(option);
                    }
                }
            }
            chosen.addAll(candidates);
        } else {
            param.translations().completeWithTypos(prefix, limit, excluded, languages())
                    .forEach(match -> chosen.add(match.option()));
        }
        return chosen.stream()
                .map(option -> new Reading.Option(param.translations().text(option, languages()),
                        param.translations().aliases(option, languages()), true))
                .toList();
    }

    /** The folded string values of the context keys the param reads (top level only); data, never code. */
    private List<String> contextValues(Param param) {
        if (param.contextKeys().isEmpty() || !(query.additionalContext() instanceof Map<?, ?> context)) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        context.forEach((key, value) -> {
            if (param.contextKeys().contains(TextFolding.fold(String.valueOf(key))) && value instanceof String text) {
                values.add(TextFolding.fold(text));
            }
        });
        return values;
    }

    /** Folded texts already picked, per catalog, so options never repeat a pick of the same catalog. */
    private Map<OptionCatalog, Set<String>> picked(IntentReading reading) {
        Map<OptionCatalog, Set<String>> picked = new IdentityHashMap<>();
        for (Segment.Param token : query.params()) {
            Param param = reading.intent().param(token.type());
            if (param != null && !token.masked()) {
                picked.computeIfAbsent(param.catalog(), c -> new HashSet<>())
                        .add(param.translations().canonical(token.text(), languages()));
            }
        }
        for (Read read : reading.reads()) {
            if (read.state() == ReadingState.COMPLETED) {
                picked.computeIfAbsent(read.param().catalog(), c -> new HashSet<>())
                        .add(read.param().catalog().foldedText(read.option()));
            }
        }
        return picked;
    }

    private boolean filled(Param param, IntentReading reading) {
        for (Segment.Param token : query.params()) {
            if (token.type().equals(param.type())) {
                return true;
            }
        }
        for (Read read : reading.reads()) {
            if (read.param() == param && read.state() == ReadingState.COMPLETED) {
                return true;
            }
        }
        return false;
    }

    private boolean applies(Param param, IntentReading reading) {
        CatalogModel.Condition condition = param.condition();
        if (condition == null) {
            return true;
        }
        String value = valueOf(condition.type(), reading);
        return value != null && condition.values().contains(value);
    }

    /** The folded value a param holds, from a token or a completed reading; null when open or masked. */
    private String valueOf(String type, IntentReading reading) {
        for (Segment.Param token : query.params()) {
            if (token.type().equals(type) && !token.masked()) {
                Param param = reading.intent().param(type);
                return param == null ? TextFolding.fold(token.text())
                        : param.translations().canonical(token.text(), languages());
            }
        }
        for (Read read : reading.reads()) {
            if (read.param().type().equals(type) && read.state() == ReadingState.COMPLETED) {
                return read.param().catalog().foldedText(read.option());
            }
        }
        return null;
    }

    private String foldedSpan(Read read) {
        return TextFolding.fold(query.rawQuery().substring(read.start(), read.end()));
    }

    private List<String> languages() {
        return query.languageFallbacks();
    }
}
