package dev.autocomplete.server.reading;

import dev.autocomplete.server.engines.EngineCalls;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.reading.ProductModel.Intent;
import dev.autocomplete.server.reading.ProductModel.Param;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.ContextNames;
import dev.autocomplete.spi.toolkit.TextFolding;
import dev.autocomplete.spi.toolkit.Typos;
import dev.autocomplete.spi.toolkit.Words;
import dev.autocomplete.spi.toolkit.Words.Word;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads one query against a product: which intent, which free-typed spans are param values (asking each param's
 * engine), which param the user is typing into, and what to propose next. One instance per request; not
 * thread-safe.
 */
public final class QueryReader {

    /** Free-typed values longer than this many words are read by their last words only. */
    private static final int MAX_VALUE_WORDS = 12;
    /** At most this many values the context names are looked up per param. */
    private static final int MAX_CONTEXT_LOOKUPS = 8;
    /** How far down an engine's ranking the order of several named options is looked up. */
    private static final int WIDE_LIMIT = 500;
    /** What the engine's first option is worth against learned credit (one honest pick adds 1). */
    private static final double ENGINE_PRIOR = 1.0;
    /** Keeps an option whose text is exactly what was typed first, whatever was learned. */
    private static final double EXACT = 1e12;

    private final ProductModel model;
    private final Query query;
    private final ParamSources sources;
    private final Set<String> allTypes;
    private final List<String> languages;
    private final List<List<Word>> blocks = new ArrayList<>();
    /** The query's filled params (its placeholders), in query order: gathered once, asked for per param. */
    private final List<Segment.Param> tokens = new ArrayList<>();

    private final boolean endsWithText;
    private final boolean leadingIsText;
    private final Map<Param, Set<String>> contextValues = new java.util.IdentityHashMap<>();
    /** Texts offered only because the context named them (context_options): never learned from. */
    private final Set<String> fromContext = new java.util.HashSet<>();

    /** A free-typed span read as a value of {@code param}; {@code value} is the value it reads as, or null. */
    private record Read(Param param, int start, int end, ReadingState state, String value) {}

    /** What one intent makes of the query; {@code activeText} is what the user is typing into {@code active}. */
    private record IntentReading(Intent intent, List<Read> reads, Param active, String activeText) {}

    /**
     * A cue word (or words) at some place: the param it introduces, or null for a connecting word; {@code named} is
     * the param whose cue it is, filled or not.
     */
    private record Cue(Param param, int length, Param named) {}

    /** Where a piece left the user: the param still being typed into and the text typed for it. */
    private record Typing(Param param, String text) {}

    QueryReader(ProductModel model, Query query, ParamSources sources) {
        this.model = model;
        this.query = query;
        this.sources = sources;
        this.allTypes = model.paramTypes();
        this.languages = query.languageFallbacks();
        List<Segment> segments = query.segments();
        for (Segment segment : segments) {
            if (segment instanceof Segment.Text text) {
                blocks.add(Words.of(text.text(), text.start()));
            } else if (segment instanceof Segment.Param token) {
                tokens.add(token);
            }
        }
        endsWithText = !segments.isEmpty() && segments.getLast() instanceof Segment.Text;
        leadingIsText = !segments.isEmpty() && segments.getFirst() instanceof Segment.Text;
    }

    /**
     * Reads {@code query} for a product.
     *
     * @param engines the engine of each param type
     * @param calls receives what the engines did
     * @param deadlineNanos when the answer is due, on {@link System#nanoTime()}
     * @param picked the texts of the params filled by a pick, by type
     */
    public static Reading read(
            ProductModel model,
            Query query,
            Map<String, GuardedEngine> engines,
            EngineCalls calls,
            long deadlineNanos,
            Map<String, String> picked) {
        return new QueryReader(model, query, new ParamSources(engines, query, model, calls, deadlineNanos, picked))
                .read();
    }

    Reading read() {
        if (query.rawQuery().isBlank()) {
            Intent first = model.intents().getFirst();
            IntentReading nothing = new IntentReading(first, List.of(), null, "");
            return new Reading(null, List.of(), model.prompt().in(languages), suggestions(nothing));
        }
        List<Word> leading = leadingIsText ? blocks.getFirst() : List.of();
        for (Intent intent : model.intents()) {
            int consumed = phraseWords(intent, leading);
            if (consumed >= 0) {
                return reading(readWith(intent, consumed), ReadingState.COMPLETED);
            }
        }
        for (Intent intent : model.intents()) {
            int consumed = typoPhraseWords(intent, leading);
            if (consumed >= 0) {
                return reading(readWith(intent, consumed), ReadingState.NEED_CONFIRMATION);
            }
        }
        String typed = Words.join(leading, 0, leading.size());
        if (tokens.isEmpty() && typed.indexOf(' ') > 0) {
            // Several words that start a phrase: the user is typing the intent, not a value.
            for (Intent intent : model.intents()) {
                if (intent.phrasesIn(languages).stream().anyMatch(p -> p.startsWith(typed))) {
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
            if (!typed.isEmpty() && intent.phrasesIn(languages).stream().anyMatch(p -> p.startsWith(typed))) {
                return reading(readWith(intent, leading.size()), ReadingState.IN_PROGRESS);
            }
        }
        return reading(readWith(model.intents().getFirst(), 0), ReadingState.IN_PROGRESS);
    }

    private Reading reading(IntentReading reading, ReadingState intentState) {
        // Loops, not streams: every uncached answer makes these (two streams cost 1 % of one).
        List<String> required = new ArrayList<>();
        for (Param param : reading.intent().params()) {
            if (param.required() && applies(param, reading)) {
                required.add(param.type());
            }
        }
        List<Reading.Identified> identified = new ArrayList<>(reading.reads().size());
        for (Read read : reading.reads()) {
            identified.add(new Reading.Identified(read.param().type(), read.start(), read.end(), read.state()));
        }
        return new Reading(
                new Reading.Intent(reading.intent().name(), intentState, Collections.unmodifiableList(required)),
                identified,
                null,
                suggestions(reading));
    }

    /** docs/protocol.md §4.7: an intent fits when every token is one of its params and something was read or filled. */
    private boolean fits(IntentReading reading) {
        for (Segment.Param token : tokens) {
            if (reading.intent().param(token.type()) == null) {
                return false;
            }
        }
        return !tokens.isEmpty() || !reading.reads().isEmpty();
    }

    /** How many leading words an intent phrase covers, or -1 when the text does not start with one. */
    private int phraseWords(Intent intent, List<Word> leading) {
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
    private int typoPhraseWords(Intent intent, List<Word> leading) {
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
        Typing typing = null;
        for (int b = 0; b < blocks.size(); b++) {
            List<Word> words = blocks.get(b);
            int from = b == 0 && leadingIsText ? Math.min(skipLeading, words.size()) : 0;
            boolean lastBlock = b == blocks.size() - 1 && endsWithText;
            int pieceStart = from;
            Param cued = null;
            int i = from;
            while (i <= words.size()) {
                Cue cue = i < words.size() ? cueAt(intent, words, i, pieceStart, cued, reads, lastBlock) : null;
                if (i == words.size() || cue != null) {
                    boolean trailing = lastBlock && i == words.size();
                    Typing left = readPiece(intent, words, pieceStart, i, cued, trailing, reads);
                    if (trailing) {
                        typing = left;
                    }
                    if (i == words.size()) {
                        break;
                    }
                    cued = cue.param() != null ? cue.param() : opensNow(intent, cue.named(), reads);
                    i += cue.length();
                    pieceStart = i;
                } else {
                    i++;
                }
            }
        }
        return typing == null
                ? new IntentReading(intent, List.copyOf(reads), null, "")
                : new IntentReading(intent, List.copyOf(reads), typing.param(), typing.text());
    }

    /**
     * Reads the words {@code [from, to)} introduced by {@code cued} (null when no cue word introduced them): from
     * the left, the longest span that reads as a value of a candidate param, where a span that reaches the end of
     * the piece may also be the start of a value or a typo-level match. Returns where the user is typing when this
     * is the trailing piece, else null.
     */
    private Typing readPiece(
            Intent intent, List<Word> words, int from, int to, Param cued, boolean trailing, List<Read> reads) {
        if (from >= to) {
            return trailing && cued != null && !filled(cued, reads) ? new Typing(cued, "") : null;
        }
        Typing typing = null;
        int pos = Math.max(from, to - MAX_VALUE_WORDS);
        int readUpTo = pos;
        int readAt = -1; // where the last span read in this piece ended
        Param open = cued;
        while (pos < to) {
            List<Param> candidates =
                    open != null && !filled(open, reads) ? List.of(open) : uncuedCandidates(intent, reads, trailing);
            Param bestParam = null;
            int bestEnd = -1;
            SpanMatch bestMatch = null;
            int[] ends = new int[Math.min(to, pos + MAX_VALUE_WORDS) - pos];
            for (int k = 0; k < ends.length; k++) {
                ends[k] = words.get(pos + k).end();
            }
            // The span up to the last word when that word is the start of a cue (`Lisbn t`, before `to`): read as it
            // would be were the cue whole, which closes the span.
            int beforeCue = open == null
                            && trailing
                            && pos + 1 < to
                            && startsACue(intent, words.get(to - 1).folded())
                    ? to - 2 - pos
                    : -1;
            Param closedByCue = null;
            SpanMatch closedMatch = null;
            for (Param param : candidates) {
                SpanMatch[] matches = sources.match(param.type(), words.get(pos).start(), ends, contextValues(param));
                if (closedByCue == null
                        && beforeCue >= 0
                        && beforeCue < ends.length
                        && (matches[beforeCue].kind() == SpanMatch.Kind.PREFIX
                                || matches[beforeCue].kind() == SpanMatch.Kind.LOOSE)) {
                    closedByCue = param;
                    closedMatch = matches[beforeCue];
                }
                for (int k = ends.length - 1; k >= 0 && pos + k + 1 >= bestEnd; k--) {
                    boolean reachesEnd = pos + k + 1 == to;
                    SpanMatch.Kind kind = matches[k].kind();
                    if (kind == SpanMatch.Kind.PREFIX
                            && ((pos == from && cued == null) || pos == readAt)
                            && cueBeingTyped(intent, words, pos, k, trailing, to)) {
                        continue;
                    }
                    // As long a span as the best so far wins only as a value over a start or a typo (`morgen`: a
                    // date, though close to `Morena`).
                    boolean better = pos + k + 1 > bestEnd
                            || (kind.isValue() && !bestMatch.kind().isValue());
                    if (better
                            && (kind.isValue()
                                    || (reachesEnd
                                            && (kind == SpanMatch.Kind.PREFIX || kind == SpanMatch.Kind.LOOSE)))) {
                        int settled = kind == SpanMatch.Kind.LOOSE ? exactBefore(intent, words, pos, k, matches) : -1;
                        int last = settled >= 0 ? settled : k;
                        bestParam = param;
                        bestEnd = pos + last + 1;
                        bestMatch = matches[last];
                        break;
                    }
                }
            }
            if (bestParam == null && open != null && pos == from && !filled(open, reads)) {
                // The words right after a cue, closed by the next cue or followed by more text, are matched like a
                // trailing span: the longest start of a value or typo-level match (`to Londn tomorrow`, `from New
                // York to`) is the cued param's, to confirm.
                SpanMatch[] matches = sources.match(open.type(), words.get(pos).start(), ends, contextValues(open));
                for (int k = ends.length - 1; k >= 0 && bestParam == null; k--) {
                    if (matches[k].kind() == SpanMatch.Kind.PREFIX || matches[k].kind() == SpanMatch.Kind.LOOSE) {
                        bestParam = open;
                        bestEnd = pos + k + 1;
                        bestMatch = matches[k];
                    }
                }
            }
            if (bestParam == null && closedByCue != null) {
                bestParam = closedByCue;
                bestEnd = to - 1;
                bestMatch = closedMatch;
            }
            if (bestParam == null) {
                pos++;
                continue;
            }
            boolean typedLast = trailing && bestEnd == to;
            ReadingState state =
                    switch (bestMatch.kind()) {
                        case EXACT -> ReadingState.COMPLETED;
                        case EXACT_PREFIX -> typedLast ? ReadingState.IN_PROGRESS : ReadingState.COMPLETED;
                        case PREFIX -> typedLast ? ReadingState.IN_PROGRESS : ReadingState.NEED_CONFIRMATION;
                        default -> ReadingState.NEED_CONFIRMATION;
                    };
            int start = words.get(pos).start();
            int end = words.get(bestEnd - 1).end();
            if (state == ReadingState.COMPLETED
                    && repeatsDistinct(
                            intent,
                            bestParam,
                            bestMatch.value() != null
                                    ? bestMatch.value()
                                    : query.rawQuery().substring(start, end),
                            reads)) {
                state = ReadingState.NEED_CONFIRMATION;
            }
            reads.add(new Read(bestParam, start, end, state, bestMatch.value()));
            // The text being typed runs to the end of the query: a trailing space says a word is finished.
            typing = typedLast && state != ReadingState.COMPLETED
                    ? new Typing(bestParam, query.rawQuery().substring(start))
                    : null;
            open = null;
            pos = bestEnd;
            readUpTo = bestEnd;
            readAt = bestEnd;
        }
        if (trailing && readUpTo < to) {
            // Words no param reads: the param they were meant for stays active, showing what matches them (none).
            // Not a param read already, to confirm (`by tomorrow` after `to Greta Fisher` is not the contact's).
            Param meant = cued != null && !filled(cued, reads) && !wasRead(cued, reads)
                    ? cued
                    : uncuedCandidates(intent, reads, true).stream()
                            .filter(p -> !wasRead(p, reads))
                            .findFirst()
                            .orElse(null);
            if (meant != null) {
                String unread = query.rawQuery().substring(words.get(readUpTo).start());
                // The start of the cue before the next value (`t` of `to` after a pick): nothing is typed for it yet.
                return new Typing(meant, startsACue(meant, unread) ? "" : unread);
            }
        }
        return typing;
    }

    /**
     * The span of a value typed in full, shorter than the typo-level span {@code [pos, pos + k]}, when every word
     * after it is too short to hold a typo (under 4 letters): the span is a value's own text (folded) and the start
     * of no other value, so the longer span reads as that value only by dropping those words, which start something
     * new ({@code Ada Lovelace a} is the contact, then the start of {@code about}). Not an alias or the start of
     * longer values ({@code Rio de Jn} may still be Rio de Janeiro misspelt), and only when the longer span is a
     * typo of that value ({@code Satna C} is Santa Clara misspelt, though Satna is a city) or the words after it
     * start a cue ({@code London o}, before {@code on}, is not London, Canada misspelt). Its last word's index from
     * {@code pos}, or -1.
     */
    private int exactBefore(Intent intent, List<Word> words, int pos, int k, SpanMatch[] matches) {
        for (int shorter = k - 1; shorter >= 0; shorter--) {
            if (Typos.budget(words.get(pos + shorter + 1).folded()) > 0) {
                return -1;
            }
            SpanMatch match = matches[shorter];
            if (match.kind() == SpanMatch.Kind.EXACT) {
                String value = TextFolding.fold(match.value());
                if (!Words.join(words, pos, pos + shorter + 1).equals(value)) {
                    return -1; // not the value's own text typed in full
                }
                // The longer span is that value with the words dropped, not a misspelling of another one; or the
                // words dropped start a cue.
                boolean sameValue = Typos.distance(Words.join(words, pos, pos + k + 1), value) < Typos.NEVER;
                return sameValue || startsACue(intent, Words.join(words, pos + shorter + 1, pos + k + 1))
                        ? shorter
                        : -1;
            }
        }
        return -1;
    }

    /**
     * Whether the one word {@code [pos, pos + k]}, typed last, right after a pick's token, a span read or the start of
     * the text (never right after a cue), is the start of a cue word of one of the intent's params ({@code t} of
     * {@code to}, {@code na} of {@code nach}) rather than the start of a value. An end-user trial: after a pick, the
     * first letter of the cue was read as a destination being typed, which listed the cities starting with it, and the
     * official client drew its echo as a chip on the first such letter of the text ({@code fligh[t]}); the same after a
     * typed city ({@code from Lisbon t}, {@code Lisbn t}).
     */
    private boolean cueBeingTyped(Intent intent, List<Word> words, int pos, int k, boolean trailing, int to) {
        return k == 0
                && trailing
                && pos + 1 == to
                && startsACue(intent, words.get(pos).folded())
                && !afterACue(intent, words.get(pos).start());
    }

    /**
     * Whether the word before {@code at} in the query is a cue word (the last word of one), the intent's phrase's own
     * included: what follows a cue is its value, never another cue (an end-user trial: {@code Book a flight from Fr}
     * listed every city, {@code Fr} read as the start of {@code from} or {@code for}).
     */
    private boolean afterACue(Intent intent, int at) {
        String raw = query.rawQuery();
        int end = at;
        while (end > 0 && Character.isWhitespace(raw.charAt(end - 1))) {
            end--;
        }
        int start = end;
        while (start > 0 && !Character.isWhitespace(raw.charAt(start - 1)) && raw.charAt(start - 1) != '}') {
            start--;
        }
        if (start == end) {
            return false;
        }
        String before = TextFolding.fold(raw.substring(start, end));
        for (Param param : intent.params()) {
            for (String cue : param.cuesIn(languages)) {
                if (cue.equals(before) || cue.endsWith(" " + before)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code folded} is the start of a cue of one of the intent's params, not the whole of one. */
    private boolean startsACue(Intent intent, String folded) {
        for (Param param : intent.params()) {
            if (startsACue(param, folded)) {
                return true;
            }
        }
        return false;
    }

    /** Params an uncued value may belong to: the ones on screen first, then the next to fill, then the rest. */
    private List<Param> uncuedCandidates(Intent intent, List<Read> reads, boolean trailing) {
        IntentReading sofar = new IntentReading(intent, reads, null, "");
        Set<Param> candidates = new LinkedHashSet<>();
        if (trailing) {
            for (SuggestRequest.SuggestionRef ref : query.recentlySuggested()) {
                Param param = intent.param(ref.type());
                if (param != null && !filled(param, reads) && applies(param, sofar)) {
                    candidates.add(param);
                }
            }
        }
        candidates.addAll(openParams(sofar));
        return List.copyOf(candidates);
    }

    /**
     * The param a cue names once the words before it are read, or null: {@code to} in {@code email to Greta}
     * introduces the contact, which applies only once {@code email} is read.
     */
    private Param opensNow(Intent intent, Param named, List<Read> reads) {
        IntentReading sofar = new IntentReading(intent, reads, null, "");
        return !filled(named, reads) && !wasRead(named, reads) && applies(named, sofar) ? named : null;
    }

    private static boolean wasRead(Param param, List<Read> reads) {
        return reads.stream().anyMatch(read -> read.param() == param);
    }

    /**
     * Whether {@code value}, read for {@code param}, equals the value of a param it is declared distinct from (its
     * {@code distinct_from}, or one whose {@code distinct_from} names it), picked or read before it.
     */
    private boolean repeatsDistinct(Intent intent, Param param, String value, List<Read> reads) {
        IntentReading sofar = new IntentReading(intent, reads, null, "");
        String folded = TextFolding.fold(value);
        for (Param other : intent.params()) {
            boolean distinct =
                    other.type().equals(param.distinctFrom()) || param.type().equals(other.distinctFrom());
            if (distinct && other != param && valueNames(other.type(), sofar).contains(folded)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A cue at {@code i}: the longest cue of any param of the intent. A cue of a param that is filled (or does not
     * apply) is a connecting word: it separates values and is never read as one. A cue that continues the value
     * being typed ({@code de} in {@code Rio de Janeiro}, {@code am} as the start of {@code Amsterdam} after
     * {@code von}) is no cue: the longest option match wins; but a cue word that starts a piece and introduces the
     * param it would be read for is its cue ({@code to} before a destination, though {@code Tokyo} starts with it).
     * A cue that ends text followed by a token ({@code from {{BRANCH_1}} to {{BASE_BRANCH_1}}}) continues nothing:
     * the user typed on past it.
     */
    private Cue cueAt(
            Intent intent,
            List<Word> words,
            int i,
            int pieceStart,
            Param current,
            List<Read> reads,
            boolean lastBlock) {
        Param cuedParam = null;
        int length = 0;
        for (Param param : intent.params()) {
            for (String cue : param.cuesIn(languages)) {
                int n = cue.split(" ").length;
                if (n > length
                        && i + n <= words.size()
                        && Words.join(words, i, i + n).equals(cue)) {
                    cuedParam = param;
                    length = n;
                }
            }
        }
        if (length == 0) {
            return null;
        }
        if (i == pieceStart && current != null && current == cuedParam) {
            // Right after a cue of the same param, a cue word is the start of its value: `to To` (Tokyo, Toronto).
            return null;
        }
        int lookEnd = Math.min(words.size(), i + length + 1);
        boolean endsBeforeToken = !lastBlock && i + length == words.size();
        List<Param> continuing = endsBeforeToken
                ? List.of()
                : current != null && !filled(current, reads)
                        ? List.of(current)
                        : uncuedCandidates(intent, reads, false).stream()
                                .limit(1)
                                .toList();
        for (Param param : continuing) {
            if (pieceStart == i && param == cuedParam) {
                continue; // The cue of the very param it would start: `to` before a destination is the cue.
            }
            SpanMatch.Kind kind = sources.match(
                            param.type(),
                            words.get(pieceStart).start(),
                            words.get(lookEnd - 1).end(),
                            contextValues(param))
                    .kind();
            if (kind != SpanMatch.Kind.NONE && kind != SpanMatch.Kind.LOOSE) {
                return null;
            }
        }
        if (valueOverCue(intent, words, i, length, cuedParam, reads)) {
            return null;
        }
        IntentReading sofar = new IntentReading(intent, reads, null, "");
        boolean open = !filled(cuedParam, reads) && applies(cuedParam, sofar);
        return new Cue(open ? cuedParam : null, length, cuedParam);
    }

    /**
     * Whether the words from a cue on read as a value of another open param (or, at the end, its start) while the
     * words after the cue read as nothing of the cued one: {@code in 3 days} is a date, not the cabin
     * {@code 3 days}. The reading that makes the whole span a value wins over a cue that leaves an unreadable
     * remainder.
     */
    private boolean valueOverCue(Intent intent, List<Word> words, int i, int length, Param cued, List<Read> reads) {
        int last = Math.min(words.size(), i + MAX_VALUE_WORDS);
        if (i + length >= last) {
            return false;
        }
        if (!filled(cued, reads)) {
            int[] after = new int[last - i - length];
            for (int k = 0; k < after.length; k++) {
                after[k] = words.get(i + length + k).end();
            }
            for (SpanMatch match :
                    sources.match(cued.type(), words.get(i + length).start(), after, contextValues(cued))) {
                if (match.kind() != SpanMatch.Kind.NONE) {
                    return false;
                }
            }
        }
        int[] ends = new int[last - i];
        for (int k = 0; k < ends.length; k++) {
            ends[k] = words.get(i + k).end();
        }
        for (Param param : uncuedCandidates(intent, reads, false)) {
            if (param == cued) {
                continue;
            }
            SpanMatch[] matches = sources.match(param.type(), words.get(i).start(), ends, contextValues(param));
            for (int k = length; k < ends.length; k++) {
                SpanMatch.Kind kind = matches[k].kind();
                if (kind.isValue() || (kind == SpanMatch.Kind.PREFIX && i + k + 1 == words.size())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Applicable params not yet filled: required ones first, then optional ones not dismissed. */
    private List<Param> openParams(IntentReading reading) {
        List<Param> open = new ArrayList<>();
        for (boolean required : new boolean[] {true, false}) {
            for (Param param : reading.intent().params()) {
                if (param.required() == required
                        && applies(param, reading)
                        && !filled(param, reading.reads())
                        && (required || !query.dismissedTypes().contains(param.type()))) {
                    open.add(param);
                }
            }
        }
        return open;
    }

    /**
     * docs/protocol.md §4.4: the param being typed into first, then the open ones; while a required param is open,
     * optional ones wait (the official client asks again only when it runs out of cached suggestions, so listing
     * them would hide {@code is_ready} after the last required pick). The first suggestion has its options; the
     * later ones only those of {@link #laterOptions}. A param read before the end of the text to confirm (a typo,
     * the start of a value) comes with what it may be as options: a required one after the required open ones and
     * before the optional ones, an optional one last (first only when no other param is left).
     */
    private List<Reading.ParamSuggestion> suggestions(IntentReading reading) {
        Set<Param> order = new LinkedHashSet<>();
        if (reading.active() != null && !filled(reading.active(), reading.reads())) {
            order.add(reading.active());
        }
        Map<Param, String> toConfirm = new LinkedHashMap<>();
        for (Read read : reading.reads()) {
            if (read.param() != reading.active() && !filled(read.param(), reading.reads())) {
                toConfirm.putIfAbsent(read.param(), query.rawQuery().substring(read.start(), read.end()));
            }
        }
        List<Param> open = openParams(reading);
        open.removeAll(toConfirm.keySet());
        boolean requiredOpen = false;
        for (Param param : open) {
            requiredOpen |= param.required();
        }
        for (Param param : open) {
            if (param.required()) {
                order.add(param);
            }
        }
        // A required param to confirm before the optional ones: the query cannot be ready without it, and the official
        // client shows the first suggestion only (an end-user trial: after `Lisbn to London`, or a picked city edited
        // in the middle of the text, the date, cabin and passengers came first and Lisbon could not be reached).
        for (Param param : toConfirm.keySet()) {
            if (param.required()) {
                order.add(param);
            }
        }
        if (!requiredOpen) {
            order.addAll(open);
        }
        // An optional one to confirm last, first only when nothing else is left: then it is what the user has to
        // settle.
        order.addAll(toConfirm.keySet());
        Map<String, String> filled = sources.filledWith(readValues(reading));
        List<Reading.ParamSuggestion> suggestions = new ArrayList<>();
        for (Param param : order) {
            String typed = param == reading.active() ? reading.activeText() : toConfirm.getOrDefault(param, "");
            fromContext.clear();
            List<Option> options = suggestions.isEmpty() || toConfirm.containsKey(param)
                    ? options(param, typed, filled)
                    : laterOptions(param, filled);
            if (options.isEmpty() && param == reading.active() && startsACue(param, typed)) {
                // `… on Friday i`: the start of the cabin's cue `in`, not a cabin; the list it will have at `in`.
                options = options(param, "", filled);
            }
            options = withoutDistinct(reading, param, options);
            Predicate<String> boosts = options.isEmpty() ? null : sources.boosted(param.type(), filled);
            for (int i = 0; boosts != null && i < options.size(); i++) {
                if (boosts.test(options.get(i).text())) {
                    // Offered first because the context's attributes boost it, perhaps only because of them: a pick of
                    // it says what this user's context holds (a hostile trial's one pick of Reykjavík, boosted by
                    // home_country IS, put it into every user's list).
                    fromContext.add(options.get(i).text());
                }
            }
            if (!options.isEmpty() && param.learn() && sources.filtered(param.type(), filled)) {
                // Offered perhaps only because the context's attributes filtered the others out: a pick of an option
                // the list without the context would not show says what this user's context holds, not what users
                // prefer (an operator trial's one pick of a small Munich restaurant, offered to a Munich user with
                // nothing typed, came second for every user without a city).
                Set<String> unfiltered = new HashSet<>();
                sources.withoutContext(param.type(), typed, filled, query.optionLimit())
                        .forEach(option -> unfiltered.add(option.text()));
                options.stream()
                        .map(Option::text)
                        .filter(text -> !unfiltered.contains(text))
                        .forEach(fromContext::add);
            }
            suggestions.add(new Reading.ParamSuggestion(
                    param.type(), param.label().in(languages), param.required(), options, fromContext));
        }
        return suggestions;
    }

    /**
     * {@code options} without the values of the params {@code param} is declared distinct from (its {@code
     * distinct_from}, or one whose {@code distinct_from} names it), picked or read: such a value is read as to confirm
     * ({@link #repeatsDistinct}), so offering it would offer what the reading then refuses. A catalog's lists leave out
     * picks of the same list already; a plug-in engine's options did not.
     */
    private List<Option> withoutDistinct(IntentReading reading, Param param, List<Option> options) {
        Set<String> taken = null;
        for (Param other : reading.intent().params()) {
            if (other != param
                    && (other.type().equals(param.distinctFrom())
                            || param.type().equals(other.distinctFrom()))) {
                String value = valueName(other.type(), reading);
                if (value != null) {
                    taken = taken == null ? new HashSet<>() : taken;
                    taken.add(value);
                }
            }
        }
        if (taken == null) {
            return options;
        }
        int shortest = Integer.MAX_VALUE;
        for (String value : taken) {
            shortest = Math.min(shortest, value.length());
        }
        List<Option> kept = new ArrayList<>(options.size());
        for (Option option : options) {
            // A text under half a value's length is not folded (most options of an answer): only ligatures and
            // compatibility forms fold longer, and such an option is at worst kept, as it was before this filter.
            if (2 * option.text().length() < shortest || !taken.contains(TextFolding.fold(option.text()))) {
                kept.add(option);
            }
        }
        return kept;
    }

    /** Whether {@code typed} is the start of one of {@code param}'s cues, not the whole of one. */
    private boolean startsACue(Param param, String typed) {
        String folded = TextFolding.fold(typed).strip();
        if (folded.isEmpty()) {
            return false;
        }
        for (String cue : param.cuesIn(languages)) {
            if (cue.length() > folded.length() && cue.startsWith(folded)) {
                return true;
            }
        }
        return false;
    }

    /**
     * docs/protocol.md §4.4: the options of a suggestion listed after the first one. The official client shows
     * them from its cache right after a pick for the first one, filters them by substring as the user types, and
     * asks the server only once none matches. A short list whole is worth that; the first page of a long one is
     * not: computed before the pick, it may offer the value just picked (a destination equal to the origin),
     * and filtered locally it answers a first letter with the few top options that contain it anywhere, where
     * the server would answer with the best options that start with it. So a list longer than the option limit
     * keeps only the options the context names (the user's own, first whatever is typed) and otherwise goes
     * without: the first letter typed for it makes the client ask.
     */
    private List<Option> laterOptions(Param param, Map<String, String> filled) {
        int limit = query.optionLimit();
        List<Option> engineOptions = sources.options(param.type(), "", filled, limit + 1);
        if (engineOptions.size() <= limit) {
            return contextFirst(param, "", filled, learned(param, "", filled, engineOptions), false);
        }
        // A long list carries what the context names, and what users picked most: those are worth filtering
        // locally; the rest of its first page is not.
        List<Option> named = contextFirst(param, "", filled, engineOptions.subList(0, limit), true);
        List<Option> picked = learnedOnly(param, filled);
        if (picked.isEmpty()) {
            return named;
        }
        Map<String, Option> both = new LinkedHashMap<>();
        named.forEach(option -> both.putIfAbsent(option.text(), option));
        picked.forEach(option -> both.putIfAbsent(option.text(), option));
        List<Option> merged = new ArrayList<>(both.values());
        return merged.size() > limit ? merged.subList(0, limit) : merged;
    }

    /**
     * The options of a param for what was typed: the engine's, with the values the context names that match the
     * typed text first (docs/protocol.md §4.6), whatever their rank in the engine's list.
     */
    private List<Option> options(Param param, String typed, Map<String, String> filled) {
        return contextFirst(
                param,
                typed,
                filled,
                learned(
                        param,
                        typed,
                        filled,
                        accentsFirst(typed, sources.options(param.type(), typed, filled, query.optionLimit()))),
                false);
    }

    /**
     * When what was typed has letters beyond ASCII ({@code Köl}), the options in which a word starts with it as typed,
     * accents and all (case aside), come first, each group in the engine's order: the engine matches folded text, so
     * without it Kolkata, the larger city, would come before the Köln the user is spelling.
     */
    private static List<Option> accentsFirst(String typed, List<Option> options) {
        String wanted = typed.strip().toLowerCase(Locale.ROOT);
        if (options.size() < 2 || wanted.chars().allMatch(c -> c < 0x80)) {
            return options;
        }
        List<Option> first = new ArrayList<>();
        List<Option> rest = new ArrayList<>();
        for (Option option : options) {
            String text = option.text().toLowerCase(Locale.ROOT);
            boolean startsAWord = false;
            for (int at = text.indexOf(wanted); at >= 0 && !startsAWord; at = text.indexOf(wanted, at + 1)) {
                startsAWord = at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1));
            }
            (startsAWord ? first : rest).add(option);
        }
        if (first.isEmpty() || rest.isEmpty()) {
            return options;
        }
        first.addAll(rest);
        return first;
    }

    /**
     * The engine's options re-ranked by what users picked (docs/protocol.md §6.1): each scores its learned credit
     * for what is typed plus a prior for its place in the engine's list ({@link #ENGINE_PRIOR} for the first, half
     * of it for the second, ...), so an option picked a few times passes the engine's first; options picked often
     * but beyond the engine's first page join in. An option whose text or alias is exactly what was typed stays
     * first. Options the context boosts ({@code context_attributes}, {@code mode: boost}) stay before the others, as the
     * engine ranked them: picks rank within each group.
     */
    private List<Option> learned(Param param, String typed, Map<String, String> filled, List<Option> engineOptions) {
        Priors priors = query.priors();
        if (!param.learn() || priors == Priors.NONE) {
            return engineOptions;
        }
        String folded = TextFolding.fold(typed).strip();
        List<String> candidates = priors.candidates(param.type(), folded, query.optionLimit());
        if (candidates.isEmpty()) {
            return engineOptions;
        }
        Map<String, Option> pool = new LinkedHashMap<>();
        for (Option option : engineOptions) {
            pool.putIfAbsent(TextFolding.fold(option.text()), option);
        }
        int engineCount = pool.size();
        for (String candidate : candidates) {
            if (!pool.containsKey(candidate)) {
                Option found = lookUp(param, candidate, filled);
                if (found != null) {
                    pool.put(candidate, found);
                }
            }
        }
        List<Map.Entry<String, Option>> ranked = new ArrayList<>(pool.entrySet());
        double[] scores = new double[ranked.size()];
        for (int i = 0; i < ranked.size(); i++) {
            Option option = ranked.get(i).getValue();
            boolean exact = !folded.isEmpty()
                    && (ranked.get(i).getKey().equals(folded)
                            || option.aliases().stream()
                                    .anyMatch(alias -> !TextFolding.isCode(alias)
                                            && TextFolding.fold(alias).equals(folded)));
            double prior = i < engineCount ? ENGINE_PRIOR / (1 + i) : 0;
            scores[i] = (exact ? EXACT : 0)
                    + priors.credit(param.type(), folded, ranked.get(i).getKey())
                    + prior;
        }
        Predicate<String> boosts = sources.boosted(param.type(), filled);
        boolean[] boosted = new boolean[ranked.size()];
        for (int i = 0; boosts != null && i < boosted.length; i++) {
            boosted[i] = boosts.test(ranked.get(i).getValue().text());
        }
        Integer[] order = new Integer[ranked.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order,
                (a, b) -> boosted[a] != boosted[b]
                        ? Boolean.compare(boosted[b], boosted[a])
                        : Double.compare(scores[b], scores[a]));
        List<Option> result = new ArrayList<>(order.length);
        for (int i : order) {
            result.add(ranked.get(i).getValue());
        }
        return result;
    }

    /** The options users picked most for a param with nothing typed, best first (only those with credit). */
    private List<Option> learnedOnly(Param param, Map<String, String> filled) {
        Priors priors = query.priors();
        if (!param.learn() || priors == Priors.NONE) {
            return List.of();
        }
        List<Option> found = new ArrayList<>();
        for (String candidate : priors.candidates(param.type(), "", query.optionLimit())) {
            Option option = lookUp(param, candidate, filled);
            if (option != null) {
                found.add(option);
            }
        }
        return found;
    }

    /**
     * The engine's option whose folded text is {@code folded}, as the engine shows it now; null when gone, taken, or
     * left out by the context's filters (a lookup of one option by its text would otherwise get the unfiltered list).
     */
    private Option lookUp(Param param, String folded, Map<String, String> filled) {
        // Asked for one option first: the exact match fills it, so a catalog skips its typo walk (on a million
        // options ten of those per answer cost milliseconds); three only when the first was another option.
        for (int limit : new int[] {1, 3}) {
            for (Option option : sources.options(param.type(), folded, filled, limit)) {
                if (TextFolding.fold(option.text()).equals(folded)) {
                    return sources.keeps(param.type(), option.text(), filled) ? option : null;
                }
            }
        }
        return null;
    }

    /**
     * The engine's options for what was typed with the values the context names that match it first; with
     * {@code namedOnly}, those named values alone.
     */
    private List<Option> contextFirst(
            Param param, String typed, Map<String, String> filled, List<Option> engineOptions, boolean namedOnly) {
        int limit = query.optionLimit();
        Set<String> names = contextValues(param);
        if (names.isEmpty()) {
            return namedOnly ? List.of() : engineOptions;
        }
        String typedFolded = TextFolding.fold(typed);
        Map<String, Option> named = new LinkedHashMap<>();
        List<Option> others = new ArrayList<>();
        for (Option option : engineOptions) {
            if (ContextNames.names(names, option.text(), option.aliases())) {
                named.putIfAbsent(option.text(), option);
            } else {
                others.add(option);
            }
        }
        int lookups = 0;
        for (String name : names) {
            if (lookups >= MAX_CONTEXT_LOOKUPS || !startsAWord(name, typedFolded)) {
                continue;
            }
            lookups++;
            boolean found = false;
            for (Option option : sources.options(param.type(), name, filled, 3)) {
                if (ContextNames.names(Set.of(name), option.text(), option.aliases())) {
                    if (named.putIfAbsent(option.text(), option) == null) {
                        // Offered only because the context named it (the engine's list for what is typed had it
                        // not): a pick of it says what this user's context holds, not what users pick.
                        fromContext.add(option.text());
                    }
                    found = true;
                }
            }
            if (!found && param.contextOptions()) {
                String text = contextText(param, name);
                if (text != null && !filled.containsValue(text)) {
                    named.putIfAbsent(text, Option.of(text));
                    fromContext.add(text);
                }
            }
        }
        if (named.isEmpty()) {
            return namedOnly ? List.of() : engineOptions;
        }
        List<Option> ranked = new ArrayList<>(named.values());
        if (ranked.size() > 1) {
            // Named options keep the engine's order among themselves, also those beyond its first page.
            List<String> order = sources.options(param.type(), typed, filled, WIDE_LIMIT).stream()
                    .map(Option::text)
                    .toList();
            ranked.sort(java.util.Comparator.comparingInt(o -> {
                int at = order.indexOf(o.text());
                return at < 0 ? Integer.MAX_VALUE : at;
            }));
        }
        for (Option option : namedOnly ? List.<Option>of() : others) {
            if (!named.containsKey(option.text())) {
                ranked.add(option);
            }
        }
        return ranked.size() > limit ? ranked.subList(0, limit) : ranked;
    }

    private static boolean startsAWord(String foldedName, String foldedTyped) {
        if (foldedTyped.isEmpty() || foldedName.startsWith(foldedTyped)) {
            return true;
        }
        int space = foldedName.indexOf(' ');
        while (space >= 0) {
            if (foldedName.startsWith(foldedTyped, space + 1)) {
                return true;
            }
            space = foldedName.indexOf(' ', space + 1);
        }
        return false;
    }

    /**
     * The folded values the context names for a param: its own key's values, its {@code context_keys}' values,
     * and string values outside any param's key (docs/protocol.md §4.6).
     */
    private Set<String> contextValues(Param param) {
        return contextValues.computeIfAbsent(param, p -> {
            AdditionalContext context = query.context();
            if (context.isEmpty()) {
                return Set.of();
            }
            Set<String> names = new LinkedHashSet<>();
            if (!p.contextKeys().isEmpty() && context.root() instanceof AdditionalContext.Fields fields) {
                fields.fields().forEach((key, value) -> {
                    if (p.contextKeys().contains(TextFolding.fold(key))) {
                        texts(value).forEach(text -> names.add(TextFolding.fold(text)));
                    }
                });
            }
            names.addAll(ContextNames.forParam(withoutKeys(context, p.attributeKeys()), p.type(), allTypes));
            names.remove("");
            return names;
        });
    }

    /** The context without some top-level keys (folded): those a param's attributes read name no option text. */
    private static AdditionalContext withoutKeys(AdditionalContext context, Set<String> foldedKeys) {
        if (foldedKeys.isEmpty() || !(context.root() instanceof AdditionalContext.Fields fields)) {
            return context;
        }
        Map<String, AdditionalContext.Value> kept = new LinkedHashMap<>();
        fields.fields().forEach((key, value) -> {
            if (!foldedKeys.contains(TextFolding.fold(key))) {
                kept.put(key, value);
            }
        });
        return new AdditionalContext(new AdditionalContext.Fields(kept));
    }

    /** The text as the context wrote it of a folded value under the param's own keys, or null. */
    private String contextText(Param param, String folded) {
        if (!(query.context().root() instanceof AdditionalContext.Fields fields)) {
            return null;
        }
        for (Map.Entry<String, AdditionalContext.Value> entry : fields.fields().entrySet()) {
            String key = TextFolding.fold(entry.getKey());
            if (key.equals(TextFolding.fold(param.type()))
                    || param.contextKeys().contains(key)) {
                for (String text : texts(entry.getValue())) {
                    if (TextFolding.fold(text).equals(folded)) {
                        return text.strip();
                    }
                }
            }
        }
        return null;
    }

    private static List<String> texts(AdditionalContext.Value value) {
        if (value instanceof AdditionalContext.Text text) {
            return List.of(text.text());
        }
        if (value instanceof AdditionalContext.Items items) {
            return items.items().stream()
                    .filter(AdditionalContext.Text.class::isInstance)
                    .map(item -> ((AdditionalContext.Text) item).text())
                    .toList();
        }
        return List.of();
    }

    /** The values read as completed, by type: what an engine may depend on besides the picks. */
    private Map<String, String> readValues(IntentReading reading) {
        Map<String, String> values = new LinkedHashMap<>();
        for (Read read : reading.reads()) {
            if (read.state() == ReadingState.COMPLETED) {
                values.putIfAbsent(
                        read.param().type(),
                        read.value() != null ? read.value() : query.rawQuery().substring(read.start(), read.end()));
            }
        }
        return values;
    }

    private boolean filled(Param param, List<Read> reads) {
        for (Segment.Param token : tokens) {
            if (token.type().equals(param.type())) {
                return true;
            }
        }
        for (Read read : reads) {
            if (read.param() == param && read.state() == ReadingState.COMPLETED) {
                return true;
            }
        }
        return false;
    }

    private boolean applies(Param param, IntentReading reading) {
        ProductModel.Condition condition = param.condition();
        if (condition == null) {
            return true;
        }
        return valueNames(condition.type(), reading).stream().anyMatch(condition.values()::contains);
    }

    /**
     * The folded value a param holds, as typed or picked, without the other names {@link #valueNames} looks up in its
     * engine (a lookup on every answer that has the param filled, which uncached answers paid): null when open or
     * masked.
     */
    private String valueName(String type, IntentReading reading) {
        for (Segment.Param token : tokens) {
            if (token.type().equals(type)) {
                return token.masked() ? null : TextFolding.fold(token.text());
            }
        }
        for (Read read : reading.reads()) {
            if (read.param().type().equals(type) && read.state() == ReadingState.COMPLETED) {
                return TextFolding.fold(
                        read.value() != null ? read.value() : query.rawQuery().substring(read.start(), read.end()));
            }
        }
        return null;
    }

    /**
     * The folded names of the value a param holds, from a token or a completed reading; empty when open or masked.
     * A pick in a translated text also has the option's other names ({@code when: {type: email}} holds for a pick
     * of {@code courriel}): the engine's option for the text lists its default text among its aliases.
     */
    private Set<String> valueNames(String type, IntentReading reading) {
        for (Segment.Param token : tokens) {
            if (token.type().equals(type) && !token.masked()) {
                Set<String> names = new HashSet<>();
                String folded = TextFolding.fold(token.text());
                names.add(folded);
                if (!languages.isEmpty()) {
                    for (Option option : sources.options(type, token.text(), Map.of(), 3)) {
                        if (TextFolding.fold(option.text()).equals(folded)) {
                            option.aliases().forEach(alias -> names.add(TextFolding.fold(alias)));
                        }
                    }
                }
                return names;
            }
        }
        for (Read read : reading.reads()) {
            if (read.param().type().equals(type) && read.state() == ReadingState.COMPLETED) {
                return Set.of(TextFolding.fold(
                        read.value() != null ? read.value() : query.rawQuery().substring(read.start(), read.end())));
            }
        }
        return Set.of();
    }
}
