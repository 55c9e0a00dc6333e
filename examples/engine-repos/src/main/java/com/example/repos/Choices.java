package com.example.repos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.TextFolding;
import dev.autocomplete.spi.toolkit.Typos;

/**
 * A fixed list of values and how typed text reads against it: the two questions the server asks an engine. Each
 * value is known by its text and its aliases (a repository's name without its owner), compared folded with
 * {@link TextFolding}, so that {@code Acme/Rocket}, {@code acme rocket} and {@code ACME-ROCKET} are one. Immutable
 * and thread-safe.
 */
final class Choices {

    /** A value and every name it goes by, folded; {@code names.get(0)} is the folded text. */
    private record Choice(String text, List<String> aliases, List<String> names) {
    }

    /** An option and how well it fits what was typed: lower is better, then list order. */
    private record Ranked(Choice choice, int rank, int order) {
    }

    private final List<Choice> choices;

    /**
     * @param texts the values, best first (what is offered before anything is typed)
     * @param aliases for each value, the other names it goes by; may be empty
     */
    Choices(List<String> texts, List<List<String>> aliases) {
        List<Choice> all = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            List<String> names = new ArrayList<>();
            names.add(TextFolding.fold(texts.get(i)));
            aliases.get(i).forEach(alias -> names.add(TextFolding.fold(alias)));
            all.add(new Choice(texts.get(i), List.copyOf(aliases.get(i)), List.copyOf(names)));
        }
        this.choices = List.copyOf(all);
    }

    /** How one typed span reads as a value: the answer to {@link dev.autocomplete.spi.Engine#match}. */
    SpanMatch match(String span) {
        String typed = TextFolding.fold(span);
        if (typed.isEmpty()) {
            return SpanMatch.NONE;
        }
        List<Choice> equal = choices.stream().filter(c -> c.names().contains(typed)).toList();
        if (equal.size() > 1) {
            // An alias two values share ("api" for acme/api and globex/api): the user must say which.
            return SpanMatch.AMBIGUOUS;
        }
        if (equal.size() == 1) {
            Choice value = equal.getFirst();
            boolean startsOthers = choices.stream().anyMatch(c -> c != value
                    && c.names().stream().anyMatch(name -> name.startsWith(typed + " ")));
            return startsOthers ? SpanMatch.exactPrefix(value.text()) : SpanMatch.exact(value.text());
        }
        if (choices.stream().anyMatch(c -> c.names().stream().anyMatch(name -> name.startsWith(typed)))) {
            return SpanMatch.PREFIX;
        }
        boolean close = choices.stream().anyMatch(c -> c.names().stream()
                .anyMatch(name -> Typos.distance(typed, name) < Typos.NEVER));
        return close ? SpanMatch.LOOSE : SpanMatch.NONE;
    }

    /**
     * The options for what was typed, best first: a value it names exactly, then values a name of which starts
     * with it, then values with a later word that does, then values within the typos forgiven.
     */
    List<Option> options(String typedText, int limit) {
        String typed = TextFolding.fold(typedText);
        List<Ranked> ranked = new ArrayList<>();
        for (int i = 0; i < choices.size(); i++) {
            int rank = rank(choices.get(i), typed);
            if (rank < Integer.MAX_VALUE) {
                ranked.add(new Ranked(choices.get(i), rank, i));
            }
        }
        return ranked.stream()
                .sorted(Comparator.comparingInt(Ranked::rank).thenComparingInt(Ranked::order))
                .limit(limit)
                .map(r -> new Option(r.choice().text(), r.choice().aliases(), true))
                .toList();
    }

    private static int rank(Choice choice, String typed) {
        if (typed.isEmpty()) {
            return 0;
        }
        int best = Integer.MAX_VALUE;
        for (String name : choice.names()) {
            if (name.equals(typed)) {
                return 0;
            }
            if (name.startsWith(typed)) {
                best = Math.min(best, 1);
            } else if (name.contains(" " + typed)) {
                best = Math.min(best, 2);
            } else {
                int typos = Typos.distance(typed, name);
                if (typos < Typos.NEVER) {
                    best = Math.min(best, 3 + typos);
                }
            }
        }
        return best;
    }
}
