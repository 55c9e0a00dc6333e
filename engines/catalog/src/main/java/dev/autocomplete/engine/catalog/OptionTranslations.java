package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import dev.autocomplete.spi.toolkit.TextFolding;

/**
 * A catalog's option texts in other languages, layered over the catalog without changing it: per language,
 * a small {@link OptionCatalog} of the translated texts (with the translated options' weights) and the
 * option each one translates. A request matches the texts of its languages and of the default language;
 * every option found is reported as the default catalog's option, so picks, exclusions and {@code when}
 * conditions compare one identity whatever the language it was typed or shown in. Immutable, thread-safe.
 */
final class OptionTranslations {

    /** One language's texts; {@code options[i]} is the catalog option that text {@code i} translates (ascending). */
    private record Language(OptionCatalog texts, int[] options) {

        /** The index of the text translating {@code option}, or -1. */
        int textOf(int option) {
            int i = Arrays.binarySearch(options, option);
            return i >= 0 ? i : -1;
        }
    }

    private final OptionCatalog catalog;
    private final Map<String, Language> languages;

    /** Fewer typos first, then a better place, then a heavier weight, as {@link OptionCatalog} ranks. */
    private final Comparator<OptionCatalog.Match> ranking;

    private OptionTranslations(OptionCatalog catalog, Map<String, Language> languages) {
        this.catalog = catalog;
        this.languages = languages;
        this.ranking = Comparator.comparingInt(OptionCatalog.Match::edits)
                .thenComparingInt(OptionCatalog.Match::where)
                .thenComparing(Comparator.comparingDouble((OptionCatalog.Match m) -> catalog.weight(m.option()))
                        .reversed())
                .thenComparingInt(OptionCatalog.Match::option);
    }

    /**
     * @param catalog the options in the default language
     * @param translations per option of {@code catalog} (same order), lower-case language tag to text; may be
     *     shorter than the catalog (the rest have none)
     */
    static OptionTranslations of(OptionCatalog catalog, List<Map<String, String>> translations) {
        Map<String, List<OptionCatalog.Entry>> entries = new HashMap<>();
        Map<String, List<Integer>> owners = new HashMap<>();
        for (int option = 0; option < translations.size(); option++) {
            for (Map.Entry<String, String> text : translations.get(option).entrySet()) {
                entries.computeIfAbsent(text.getKey(), l -> new ArrayList<>())
                        .add(new OptionCatalog.Entry(text.getValue(), catalog.weight(option), List.of()));
                owners.computeIfAbsent(text.getKey(), l -> new ArrayList<>()).add(option);
            }
        }
        Map<String, Language> languages = new HashMap<>();
        entries.forEach((language, list) -> languages.put(language, new Language(new OptionCatalog(list),
                owners.get(language).stream().mapToInt(Integer::intValue).toArray())));
        return new OptionTranslations(catalog, Map.copyOf(languages));
    }

    /** The options in the default language. */
    OptionCatalog catalog() {
        return catalog;
    }

    /** The option's text in the first of {@code languages} that translates it, else the default text. */
    String text(int option, List<String> requested) {
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
    List<String> aliases(int option, List<String> requested) {
        String shown = text(option, requested);
        if (shown.equals(catalog.text(option))) {
            return catalog.aliases(option);
        }
        List<String> aliases = new ArrayList<>();
        aliases.add(catalog.text(option));
        aliases.addAll(catalog.aliases(option));
        return aliases;
    }

    /** The best-weighted option whose text (in a requested language or the default) or alias folds to this. */
    int exactMatch(String folded, List<String> requested) {
        int best = catalog.exactMatch(folded);
        for (Language language : in(requested)) {
            int text = language.texts().exactMatch(folded);
            if (text >= 0 && (best < 0 || catalog.weight(language.options()[text]) > catalog.weight(best))) {
                best = language.options()[text];
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
            Arrays.stream(language.texts().exactOptions(folded)).forEach(text -> found.add(language.options()[text]));
        }
        return found.stream()
                .sorted(Comparator.comparingDouble((Integer o) -> catalog.weight(o)).reversed()
                        .thenComparing(Comparator.naturalOrder()))
                .mapToInt(Integer::intValue).toArray();
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
            int[] options = language.options();
            if (language.texts().startsLonger(folded, text -> options[text] != option)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The options to offer for typed text, best first: the ones it names exactly; then, when the text ends
     * between words ({@code wordEnded}: {@code San }), the ones it starts with a next word to come
     * ({@code San Jose} before {@code Santiago}); then {@link #completeWithTypos}.
     */
    List<Integer> complete(String folded, boolean wordEnded, int limit, IntPredicate excluded,
            List<String> requested) {
        Set<Integer> chosen = new LinkedHashSet<>();
        for (int option : exactOptions(folded, requested)) {
            if (!excluded.test(option)) {
                chosen.add(option);
            }
        }
        if (wordEnded && chosen.size() < limit) {
            completeWithTypos(folded + " ", limit + chosen.size(), excluded, requested)
                    .forEach(match -> chosen.add(match.option()));
        }
        if (chosen.size() < limit) {
            // Among typo matches, an option the whole text names comes first: "Quantm Vault" is Quantum Vault
            // rather than the start of a heavier Quantum Vault Pro. Fetched wider, so a light one is in reach.
            List<OptionCatalog.Match> found = completeWithTypos(folded, 2 * limit + chosen.size(), excluded,
                    requested);
            found.stream().filter(match -> match.edits() == 0).forEach(match -> chosen.add(match.option()));
            found.stream().filter(match -> match.edits() > 0 && wholeWithinTypos(match.option(), folded, requested))
                    .forEach(match -> chosen.add(match.option()));
            found.forEach(match -> chosen.add(match.option()));
        }
        return chosen.stream().limit(limit).toList();
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
        if (!catalog.typoComplete(foldedPrefix, 1, option -> false).isEmpty()) {
            return true;
        }
        return in(requested).stream()
                .anyMatch(language -> !language.texts().typoComplete(foldedPrefix, 1, text -> false).isEmpty());
    }

    /** {@link OptionCatalog#completeWithTypos} over the default texts and the requested languages' texts. */
    List<OptionCatalog.Match> completeWithTypos(String foldedPrefix, int limit, IntPredicate excluded,
            List<String> requested) {
        List<OptionCatalog.Match> own = catalog.completeWithTypos(foldedPrefix, limit, excluded);
        List<Language> translated = in(requested);
        if (translated.isEmpty()) {
            return own;
        }
        Map<Integer, OptionCatalog.Match> best = new HashMap<>();
        own.forEach(match -> best.put(match.option(), match));
        for (Language language : translated) {
            int[] options = language.options();
            for (OptionCatalog.Match match : language.texts().completeWithTypos(foldedPrefix, limit,
                    text -> excluded.test(options[text]))) {
                OptionCatalog.Match mapped = new OptionCatalog.Match(options[match.option()], match.where(),
                        match.edits());
                best.merge(mapped.option(), mapped, (a, b) -> ranking.compare(a, b) <= 0 ? a : b);
            }
        }
        return best.values().stream().sorted(ranking).limit(limit).toList();
    }

    /**
     * The folded default text of the option {@code text} names in a requested language or the default one,
     * so a pick sent back in French reads as the same option; the folded text itself when it names none.
     */
    String canonical(String text, List<String> requested) {
        String folded = TextFolding.fold(text);
        int option = exactMatch(folded, requested);
        return option >= 0 ? catalog.foldedText(option) : folded;
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
