package dev.autocomplete.index;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * An immutable snapshot of a catalog's options, searchable while it changes: a main index, a small delta index of
 * the options upserted since the main one was built, and the main options deleted or replaced since. A write makes
 * a new snapshot ({@link #with}) that rebuilds only the delta, while queries in flight keep reading the old one;
 * {@link #folded()} rebuilds the main index from both, off the request path, when the delta grows
 * ({@link #wantsFold()}). A query searches both indexes and merges them, so that every answer is the one a snapshot
 * built at once ({@link #of}) from the same options would give, in the order: the main's remaining options as
 * they were, then the delta's, each in the order of its last upsert. Thread-safe.
 *
 * <p>Options are numbered per snapshot: an option number from one snapshot means nothing in another.
 */
public final class LiveOptions {

    /** A text in a language: the texts of both segments, and the option each one translates. */
    private record Language(LayeredCatalog texts, int[] mainOptions, int[] deltaOptions, int optionOffset) {

        /** The option text {@code text} translates. */
        int option(int text) {
            return text < mainOptions.length
                    ? mainOptions[text]
                    : deltaOptions[text - mainOptions.length] + optionOffset;
        }

        /** The text translating {@code option}, or -1. */
        int textOf(int option) {
            if (option < optionOffset) {
                int text = Arrays.binarySearch(mainOptions, option);
                return text >= 0 ? text : -1;
            }
            int text = Arrays.binarySearch(deltaOptions, option - optionOffset);
            return text >= 0 ? text + mainOptions.length : -1;
        }
    }

    private static final int[] NO_OPTIONS = new int[0];

    /** How much lighter a code's option counts against a name whose first word is the typed text. */
    private static final double CODE_DISCOUNT = 10;

    private final OptionTranslations main;
    /** The main's options deleted or replaced since it was built. */
    private final BitSet gone;

    private final int goneCount;
    private final OptionTranslations delta;
    private final long version;
    private final LayeredCatalog catalog;
    private final Map<String, Language> languages;

    /** Fewer typos first, then a better place, then a heavier weight, then the option order, as one catalog ranks. */
    private final Comparator<OptionCatalog.Match> ranking;

    private LiveOptions(OptionTranslations main, BitSet gone, OptionTranslations delta, long version) {
        this.main = main;
        this.gone = gone;
        this.goneCount = gone.cardinality();
        this.delta = delta;
        this.version = version;
        IntPredicate left = goneCount == 0 ? null : goneTest(gone);
        this.catalog = new LayeredCatalog(main.catalog(), left, delta.catalog());
        Map<String, Language> byTag = new HashMap<>();
        Set<String> tags = new HashSet<>();
        main.languageTags().forEach(tags::add);
        delta.languageTags().forEach(tags::add);
        for (String tag : tags) {
            OptionTranslations.Language own = main.language(tag);
            OptionTranslations.Language more = delta.language(tag);
            int[] mainOptions = own == null ? NO_OPTIONS : own.options();
            IntPredicate textGone = left == null ? null : text -> left.test(mainOptions[text]);
            byTag.put(
                    tag,
                    new Language(
                            new LayeredCatalog(
                                    own == null ? OptionCatalog.EMPTY : own.texts(),
                                    textGone,
                                    more == null ? OptionCatalog.EMPTY : more.texts()),
                            mainOptions,
                            more == null ? NO_OPTIONS : more.options(),
                            main.size()));
        }
        this.languages = Map.copyOf(byTag);
        this.ranking = Comparator.comparingInt(OptionCatalog.Match::edits)
                .thenComparingInt(OptionCatalog.Match::where)
                .thenComparing(Comparator.comparingDouble((OptionCatalog.Match m) -> catalog.weight(m.option()))
                        .reversed())
                .thenComparingInt(OptionCatalog.Match::option);
    }

    /**
     * Whether a main option is gone: asked of every key a search of the main index offers. The bit set of a million
     * options is 125 KB, a cache miss a key; a bit per 16 options (8 KB, which stays in cache) answers no for most of
     * them first, since the pending changes are at most about 1% of the options.
     */
    private static IntPredicate goneTest(BitSet gone) {
        long[] groups = new long[(gone.length() >>> 10) + 1];
        for (int option = gone.nextSetBit(0); option >= 0; option = gone.nextSetBit(option + 1)) {
            groups[option >>> 10] |= 1L << (option >>> 4);
        }
        return option -> (option >>> 10) < groups.length
                && (groups[option >>> 10] & (1L << (option >>> 4))) != 0
                && gone.get(option);
    }

    /**
     * Indexes the entries, in order, as one main index (the full build). Their texts are distinct once folded
     * ({@link Folding#fold}), as the store and the catalog files guarantee.
     */
    public static LiveOptions of(List<CatalogEntry> entries) {
        return new LiveOptions(OptionTranslations.of(entries), new BitSet(), OptionTranslations.EMPTY, 0);
    }

    /**
     * A new snapshot with a write applied; this one is unchanged. {@code removedTexts} go first: each drops the
     * option whose text folds like it, if any. Then each upsert, in order, replaces the option whose text folds
     * like its own, if any, and takes its place after every other option. Costs a rebuild of the delta.
     */
    public LiveOptions with(Collection<CatalogEntry> upserts, Collection<String> removedTexts) {
        if (upserts.isEmpty() && removedTexts.isEmpty()) {
            return this;
        }
        BitSet mainGone = (BitSet) gone.clone();
        BitSet deltaGone = new BitSet(delta.size());
        Map<String, CatalogEntry> added = new LinkedHashMap<>();
        for (String text : removedTexts) {
            drop(Folding.fold(text), mainGone, deltaGone, added);
        }
        for (CatalogEntry entry : upserts) {
            String folded = Folding.fold(entry.text());
            drop(folded, mainGone, deltaGone, added);
            added.put(folded, entry);
        }
        List<CatalogEntry> pending = new ArrayList<>(delta.size() + added.size());
        for (int option = deltaGone.nextClearBit(0);
                option < delta.size();
                option = deltaGone.nextClearBit(option + 1)) {
            pending.add(delta.entry(option));
        }
        pending.addAll(added.values());
        return new LiveOptions(main, mainGone, OptionTranslations.of(pending), version + 1);
    }

    private void drop(String folded, BitSet mainGone, BitSet deltaGone, Map<String, CatalogEntry> added) {
        added.remove(folded);
        int own = main.catalog().textOption(folded);
        if (own >= 0) {
            mainGone.set(own);
        }
        int more = delta.catalog().textOption(folded);
        if (more >= 0) {
            deltaGone.set(more);
        }
    }

    /**
     * Whether the pending changes (options in the delta, main options deleted or replaced) exceed 1% of the main
     * index or 1,000, whichever is more: then {@link #folded()} is worth its cost.
     */
    public boolean wantsFold() {
        return delta.size() + goneCount > Math.max(1_000, main.size() / 100);
    }

    /**
     * The same options as one main index, without a delta: a full rebuild (seconds at a million options), meant for
     * a background thread. Keeps this snapshot's {@link #version()}: swap it in while the current snapshot is still
     * of that version, otherwise apply the writes made since to it first.
     */
    public LiveOptions folded() {
        if (delta.size() == 0 && goneCount == 0) {
            return this;
        }
        int[] kept = new int[main.size() - goneCount];
        for (int option = gone.nextClearBit(0), i = 0; option < main.size(); option = gone.nextClearBit(option + 1)) {
            kept[i++] = option;
        }
        // Entries are made as the build reads them: a million of them at once would double the fold's memory.
        List<CatalogEntry> entries = new AbstractList<>() {
            @Override
            public CatalogEntry get(int index) {
                return index < kept.length ? main.entry(kept[index]) : delta.entry(index - kept.length);
            }

            @Override
            public int size() {
                return kept.length + delta.size();
            }
        };
        return new LiveOptions(OptionTranslations.of(entries), new BitSet(), OptionTranslations.EMPTY, version);
    }

    /** How many writes ({@link #with}) led to this snapshot since its first full build. */
    public long version() {
        return version;
    }

    /**
     * The attribute names the options carry (removed options' may stay until the next full build): what a
     * param's context attributes can meet.
     */
    public Set<String> attributeNames() {
        Set<String> names = new TreeSet<>();
        main.attributes().addNames(names);
        delta.attributes().addNames(names);
        return names;
    }

    /** How many options the snapshot holds. */
    public int size() {
        return main.size() - goneCount + delta.size();
    }

    /** Roughly how many bytes the snapshot holds on the heap (its indexes' arrays), for capacity planning. */
    public long heapBytes() {
        long merged = catalog.heapBytes();
        for (Language language : languages.values()) {
            merged += language.texts().heapBytes();
        }
        return main.heapBytes() + delta.heapBytes() + gone.size() / 8 + merged;
    }

    /** The option's text in the first of {@code requested} languages that translates it, else the default text. */
    public String text(int option, List<String> requested) {
        for (String tag : requested) {
            Language language = languages.get(tag);
            int text = language == null ? -1 : language.textOf(option);
            if (text >= 0) {
                return language.texts().text(text);
            }
        }
        return catalog.text(option);
    }

    /**
     * The aliases to report with an option shown as {@link #text}: when translated, the default text first,
     * so {@code additional_context} naming the option in the default language still names it.
     */
    public List<String> aliases(int option, List<String> requested) {
        // Most options are shown in the default text: asked before any text is decoded (both texts were decoded
        // for every option offered, 2.6 % of an uncached answer's CPU).
        if (!translated(option, requested) || text(option, requested).equals(catalog.text(option))) {
            return catalog.aliases(option);
        }
        List<String> aliases = new ArrayList<>();
        aliases.add(catalog.text(option));
        aliases.addAll(catalog.aliases(option));
        return aliases;
    }

    /** Whether a requested language has a text of its own for {@code option}: then {@link #text} shows that one. */
    private boolean translated(int option, List<String> requested) {
        for (String tag : requested) {
            Language language = languages.get(tag);
            if (language != null && language.textOf(option) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The best-weighted option whose text (in a requested language or the default) or alias folds to this. */
    public int exactMatch(String folded, List<String> requested) {
        int best = catalog.exactMatch(folded);
        for (Language language : in(requested)) {
            int text = language.texts().exactMatch(folded);
            if (text >= 0 && (best < 0 || catalog.weight(language.option(text)) > catalog.weight(best))) {
                best = language.option(text);
            }
        }
        return best;
    }

    /**
     * The options whose text (in a requested language or the default) or alias folds to {@code folded},
     * heaviest first: several when they share an alias or a translated text.
     */
    int[] exactOptions(String folded, List<String> requested) {
        int[] own = catalog.exactOptions(folded);
        List<Language> translated = in(requested);
        if (translated.isEmpty() && own.length < 2) {
            return own;
        }
        Set<Integer> found = new LinkedHashSet<>();
        Arrays.stream(own).forEach(found::add);
        for (Language language : translated) {
            Arrays.stream(language.texts().exactOptions(folded)).forEach(text -> found.add(language.option(text)));
        }
        return found.stream()
                .sorted(Comparator.comparingDouble((Integer o) -> catalog.weight(o))
                        .reversed()
                        .thenComparing(Comparator.naturalOrder()))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /**
     * Whether a text or alias of an option other than {@code option}, in a requested language or the default
     * one, is longer than {@code folded} and starts with it: whether typing on may still reach another option.
     */
    boolean startsAnother(int option, String folded, List<String> requested) {
        if (catalog.startsLonger(folded, other -> other != option)) {
            return true;
        }
        for (Language language : in(requested)) {
            if (language.texts().startsLonger(folded, text -> language.option(text) != option)) {
                return true;
            }
        }
        return false;
    }

    /** The options holding {@code folded} as a code ({@link AliasCodes}: an alias written {@code =LON}), ascending. */
    int[] codeOptions(String folded) {
        return catalog.codeOptions(folded);
    }

    /**
     * Whether the option whose text (or alias) folds to {@code folded} holds, for every attribute name of {@code
     * wanted}, one of its values: whether a context filter keeps it. False when no option has that text.
     */
    public boolean holds(String folded, Map<String, ? extends Collection<String>> wanted, List<String> requested) {
        int option = exactMatch(folded, requested);
        return option >= 0 && holding(wanted).test(option);
    }

    /**
     * A test of options: whether one holds, for every attribute name of {@code wanted}, one of its values (compared
     * folded); what a context filter or boost asks of an option. The pairs are looked up once, for a lookup's
     * predicate.
     */
    IntPredicate holding(Map<String, ? extends Collection<String>> wanted) {
        List<int[]> mainPairs = new ArrayList<>();
        List<int[]> deltaPairs = new ArrayList<>();
        for (Map.Entry<String, ? extends Collection<String>> each : wanted.entrySet()) {
            mainPairs.add(main.attributes().pairs(each.getKey(), each.getValue()));
            deltaPairs.add(delta.attributes().pairs(each.getKey(), each.getValue()));
        }
        int split = main.size();
        return option -> {
            boolean inMain = option < split;
            Attributes attributes = inMain ? main.attributes() : delta.attributes();
            int number = inMain ? option : option - split;
            for (int[] pairs : inMain ? mainPairs : deltaPairs) {
                if (!attributes.holdsAny(number, pairs)) {
                    return false;
                }
            }
            return true;
        };
    }

    /** The heaviest options not excluded, best first. */
    List<Integer> top(int limit, IntPredicate excluded) {
        return catalog.top(limit, excluded);
    }

    /**
     * The options to offer for typed text, best first: the ones it names exactly; then, when the text ends
     * between words ({@code wordEnded}: {@code San }), the ones it starts with a next word to come
     * ({@code San Jose} before {@code Santiago}); then {@link #completeWithTypos}.
     */
    List<Integer> complete(String folded, boolean wordEnded, int limit, IntPredicate excluded, List<String> requested) {
        OrderedInts chosen = new OrderedInts(2 * limit);
        for (int option : exactOptions(folded, requested)) {
            if (!excluded.test(option)) {
                chosen.add(option);
            }
        }
        if (wordEnded && chosen.size() < limit) {
            for (OptionCatalog.Match match :
                    completeWithTypos(folded + " ", limit + chosen.size(), excluded, requested)) {
                chosen.add(match.option());
            }
        }
        if (chosen.size() < limit) {
            // Among typo matches, an option the whole text names comes first: "Quantm Vault" is Quantum Vault
            // rather than the start of a heavier Quantum Vault Pro. Fetched wider, so a light one is in reach. A text
            // that allows no typo (words of one to three letters) finds plain matches only, in rank order, so its
            // first ones are the list; not so with translations, whose lists are merged by each option's best match.
            int wanted = TypoRules.budget(folded) == 0 && in(requested).isEmpty()
                    ? limit + chosen.size()
                    : 2 * limit + chosen.size();
            List<OptionCatalog.Match> found = completeWithTypos(folded, wanted, excluded, requested);
            int[] coded = codeOptions(folded);
            if (coded.length > 0) {
                withCodes(folded, coded, limit, excluded, requested, chosen);
            }
            // Plain matches at the start, then other plain matches, then typos of a whole text, then the rest.
            for (OptionCatalog.Match match : found) {
                if (match.edits() == 0 && match.where() == OptionCatalog.AT_START) {
                    chosen.add(match.option());
                }
            }
            for (OptionCatalog.Match match : found) {
                if (match.edits() == 0) {
                    chosen.add(match.option());
                }
            }
            for (OptionCatalog.Match match : found) {
                if (match.edits() > 0 && wholeWithinTypos(match.option(), folded, requested)) {
                    chosen.add(match.option());
                }
            }
            for (OptionCatalog.Match match : found) {
                chosen.add(match.option());
            }
        }
        return chosen.first(limit);
    }

    /**
     * A code the whole text names (LOS, Lagos) among the names whose first word the text is (Los Angeles), by weight
     * with the code's weight counted {@link #CODE_DISCOUNT} times lighter: it must not hide a name being typed unless
     * it far outweighs it (PAR is Paris before Pār Naogaon). All of them come before the names the text only starts
     * (TYO is Tokyo before Tyoply Stan, BOM Mumbai before Boma): typed whole, a code means its option.
     */
    private void withCodes(
            String folded, int[] coded, int limit, IntPredicate excluded, List<String> requested, OrderedInts chosen) {
        List<Integer> codes = new ArrayList<>();
        for (int option : coded) {
            if (!excluded.test(option)) {
                codes.add(option);
            }
        }
        codes.sort(Comparator.comparingDouble((Integer option) -> catalog.weight(option))
                .reversed());
        int next = 0;
        for (OptionCatalog.Match match : completeWithTypos(folded + " ", limit, excluded, requested)) {
            if (match.edits() != 0 || match.where() != OptionCatalog.AT_START) {
                continue;
            }
            double named = catalog.weight(match.option());
            while (next < codes.size() && catalog.weight(codes.get(next)) / CODE_DISCOUNT > named) {
                chosen.add(codes.get(next++));
            }
            chosen.add(match.option());
        }
        for (int option : codes.subList(next, codes.size())) {
            chosen.add(option);
        }
    }

    /** Whether a whole text (in a requested language or the default) or alias of the option is within typos. */
    private boolean wholeWithinTypos(int option, String folded, List<String> requested) {
        if (catalog.nameWithinTypos(option, folded)) {
            return true;
        }
        for (Language language : in(requested)) {
            int text = language.textOf(option);
            if (text >= 0 && language.texts().nameWithinTypos(text, folded)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some option has a word starting with the prefix in a requested language or the default one. */
    boolean hasPrefix(String foldedPrefix, List<String> requested) {
        if (catalog.hasPrefix(foldedPrefix)) {
            return true;
        }
        return in(requested).stream().anyMatch(language -> language.texts().hasPrefix(foldedPrefix));
    }

    /** Whether some option matches the prefix with typos, in a requested language or the default one. */
    boolean hasTypoMatch(String foldedPrefix, List<String> requested) {
        if (catalog.hasTypoMatch(foldedPrefix)) {
            return true;
        }
        return in(requested).stream().anyMatch(language -> language.texts().hasTypoMatch(foldedPrefix));
    }

    /** {@link OptionCatalog#completeWithTypos} over the default texts and the requested languages' texts. */
    List<OptionCatalog.Match> completeWithTypos(
            String foldedPrefix, int limit, IntPredicate excluded, List<String> requested) {
        List<OptionCatalog.Match> own = catalog.completeWithTypos(foldedPrefix, limit, excluded);
        List<Language> translated = in(requested);
        if (translated.isEmpty()) {
            return own;
        }
        Map<Integer, OptionCatalog.Match> best = new HashMap<>();
        own.forEach(match -> best.put(match.option(), match));
        for (Language language : translated) {
            for (OptionCatalog.Match match : language.texts()
                    .completeWithTypos(foldedPrefix, limit, text -> excluded.test(language.option(text)))) {
                OptionCatalog.Match mapped = new OptionCatalog.Match(
                        language.option(match.option()), match.where(), match.edits(), match.key());
                best.merge(mapped.option(), mapped, (a, b) -> ranking.compare(a, b) <= 0 ? a : b);
            }
        }
        return best.values().stream().sorted(ranking).limit(limit).toList();
    }

    private List<Language> in(List<String> requested) {
        if (languages.isEmpty() || requested.isEmpty()) {
            return List.of();
        }
        List<Language> found = new ArrayList<>(requested.size());
        for (String tag : requested) {
            Language language = languages.get(tag);
            if (language != null) {
                found.add(language);
            }
        }
        return found;
    }
}
