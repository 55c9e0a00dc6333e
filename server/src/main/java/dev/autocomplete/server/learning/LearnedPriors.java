package dev.autocomplete.server.learning;

import dev.autocomplete.server.reading.Priors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One product's learned credit as the reader ranks with it, built from the store's rows at one moment: per param
 * type, the options picked overall and after each typed prefix, with their credit decayed to that moment. Keeps the
 * best {@link #OVERALL} options of a type and {@link #PER_PREFIX} of each prefix, so its size is bounded whatever
 * the store holds. Immutable.
 */
final class LearnedPriors implements Priors {

    /** Options kept per param type, overall. */
    static final int OVERALL = 512;
    /** Options kept per typed prefix. */
    static final int PER_PREFIX = 32;
    /** What overall credit adds once letters are typed, against credit after those letters. */
    static final double OVERALL_SHARE = 0.5;

    private record Learned(String option, double credit) {}

    /** One param type's learning. */
    private record TypePriors(
            List<Learned> overall,
            Map<String, Double> overallCredit,
            Map<String, List<Learned>> byPrefix,
            Map<String, Map<String, Double>> prefixCredit) {}

    private final long generation;
    private final Map<String, TypePriors> byType;
    private final double minCredit;

    private LearnedPriors(long generation, Map<String, TypePriors> byType, double minCredit) {
        this.generation = generation;
        this.byType = byType;
        this.minCredit = minCredit;
    }

    /**
     * The priors of a product's credit rows, decayed by {@code decay} (a row's score to credit now); an option changes
     * an order with {@code minCredit} or more.
     */
    static LearnedPriors of(
            long generation,
            List<LearningStore.Credit> rows,
            java.util.function.DoubleUnaryOperator decay,
            double minCredit) {
        Map<String, Map<String, List<Learned>>> grouped = new HashMap<>();
        for (LearningStore.Credit row : rows) {
            double credit = decay.applyAsDouble(row.score());
            if (credit >= LearningStore.FORGOTTEN) {
                grouped.computeIfAbsent(row.param(), t -> new HashMap<>())
                        .computeIfAbsent(row.prefix(), p -> new ArrayList<>())
                        .add(new Learned(row.option(), credit));
            }
        }
        Map<String, TypePriors> byType = new HashMap<>();
        grouped.forEach((type, prefixes) -> {
            List<Learned> overall = best(prefixes.getOrDefault("", List.of()), OVERALL);
            Map<String, List<Learned>> byPrefix = new HashMap<>();
            Map<String, Map<String, Double>> prefixCredit = new HashMap<>();
            prefixes.forEach((prefix, learned) -> {
                if (!prefix.isEmpty()) {
                    List<Learned> kept = best(learned, PER_PREFIX);
                    byPrefix.put(prefix, kept);
                    prefixCredit.put(prefix, credits(kept));
                }
            });
            byType.put(type, new TypePriors(overall, credits(overall), byPrefix, prefixCredit));
        });
        return new LearnedPriors(generation, Map.copyOf(byType), minCredit);
    }

    private static List<Learned> best(List<Learned> learned, int max) {
        return learned.stream()
                .sorted(Comparator.comparingDouble(Learned::credit).reversed().thenComparing(Learned::option))
                .limit(max)
                .toList();
    }

    private static Map<String, Double> credits(List<Learned> learned) {
        Map<String, Double> credits = new HashMap<>();
        learned.forEach(l -> credits.put(l.option(), l.credit()));
        return credits;
    }

    @Override
    public long generation() {
        return generation;
    }

    @Override
    public List<String> candidates(String type, String typedFolded, int max) {
        TypePriors priors = byType.get(type);
        if (priors == null) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        if (typedFolded.isEmpty()) {
            for (Learned learned : priors.overall()) {
                if (found.size() == max || learned.credit() < minCredit) {
                    break;
                }
                found.add(learned.option());
            }
            return found;
        }
        Map<String, Double> scored = new HashMap<>();
        for (Learned learned : priors.byPrefix().getOrDefault(prefixOf(typedFolded), List.of())) {
            if (startsAWord(learned.option(), typedFolded)) {
                scored.put(learned.option(), credit(type, typedFolded, learned.option()));
            }
        }
        for (Learned learned : priors.overall()) {
            if (!scored.containsKey(learned.option()) && startsAWord(learned.option(), typedFolded)) {
                scored.put(learned.option(), credit(type, typedFolded, learned.option()));
            }
        }
        scored.entrySet().stream()
                .filter(e -> e.getValue() >= minCredit)
                .sorted(Map.Entry.<String, Double>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(max)
                .forEach(e -> found.add(e.getKey()));
        return found;
    }

    @Override
    public double credit(String type, String typedFolded, String optionFolded) {
        TypePriors priors = byType.get(type);
        if (priors == null) {
            return 0;
        }
        double overall = priors.overallCredit().getOrDefault(optionFolded, 0.0);
        if (typedFolded.isEmpty()) {
            return overall;
        }
        double afterPrefix = priors.prefixCredit()
                .getOrDefault(prefixOf(typedFolded), Map.of())
                .getOrDefault(optionFolded, 0.0);
        return afterPrefix + OVERALL_SHARE * overall;
    }

    private static String prefixOf(String typedFolded) {
        return typedFolded.length() <= Pick.PREFIX_LETTERS
                ? typedFolded
                : typedFolded.substring(0, Pick.PREFIX_LETTERS);
    }

    /** Whether {@code typed} starts {@code option} or one of its words (both folded). */
    static boolean startsAWord(String option, String typed) {
        if (option.startsWith(typed)) {
            return true;
        }
        for (int space = option.indexOf(' '); space >= 0; space = option.indexOf(' ', space + 1)) {
            if (option.startsWith(typed, space + 1)) {
                return true;
            }
        }
        return false;
    }
}
