package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/** A fold keeps what a full build of the same options keeps: texts, translations, aliases and attributes. */
class LiveOptionsFoldTest {

    private static final List<String> TEAMS = List.of("Sales", "Support", "Engineering", "Finance");

    @Test
    void a_fold_of_pending_changes_holds_what_a_full_build_of_the_same_options_holds() {
        Random random = new Random(29);
        Map<String, CatalogEntry> options = new LinkedHashMap<>();
        for (int i = 0; i < 3_000; i++) {
            CatalogEntry entry = entry(i, random);
            options.put(Folding.fold(entry.text()), entry);
        }
        LiveOptions live = LiveOptions.of(List.copyOf(options.values()));
        // Replaced (new weight, team, translation), removed, and new options, as records API writes would.
        List<CatalogEntry> upserts = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (int i = 0; i < 3_000; i += 7) {
            CatalogEntry entry = entry(i, random);
            upserts.add(entry);
            options.remove(Folding.fold(entry.text()));
            options.put(Folding.fold(entry.text()), entry);
        }
        for (int i = 3; i < 3_000; i += 11) {
            String text = "Place " + i;
            if (i % 7 != 0) {
                removed.add(text);
                options.remove(Folding.fold(text));
            }
        }
        for (int i = 3_000; i < 3_200; i++) {
            CatalogEntry entry = entry(i, random);
            upserts.add(entry);
            options.put(Folding.fold(entry.text()), entry);
        }
        LiveOptions folded = live.with(upserts, removed).folded();
        LiveOptions built = LiveOptions.of(List.copyOf(options.values()));

        assertEquals(built.size(), folded.size());
        assertEquals(options.size(), folded.size());
        assertEquals(view(built), view(folded));
        // Not a view of nothing: translations and both kinds of attribute values are there.
        Map<String, String> view = view(folded);
        assertEquals(options.size(), view.size());
        assertTrue(view.values().stream().anyMatch(v -> v.contains("fr=Lieu") && v.contains("sales=true")));
        assertTrue(view.values().stream().anyMatch(v -> v.contains("pt=true")));
    }

    private static CatalogEntry entry(int i, Random random) {
        Map<String, String> translations = random.nextInt(3) == 0 ? Map.of("fr", "Lieu " + i) : Map.of();
        Map<String, List<String>> attributes = random.nextInt(5) == 0
                ? Map.of()
                : Map.of(
                        "team",
                        List.of(TEAMS.get(random.nextInt(TEAMS.size()))),
                        "country",
                        random.nextBoolean() ? List.of("PT", "ES") : List.of("FR"));
        return new CatalogEntry("Place " + i, List.of("P" + i), 1 + random.nextInt(1_000), translations, attributes);
    }

    /** Per default text: the French text, the aliases and which attribute tests the option passes. */
    private static Map<String, String> view(LiveOptions options) {
        IntPredicate sales = options.holding(Map.of("team", List.of("sales")));
        IntPredicate portugal = options.holding(Map.of("country", List.of("PT")));
        IntPredicate supportInFrance = options.holding(Map.of("team", List.of("Support"), "country", List.of("FR")));
        Map<String, String> view = new LinkedHashMap<>();
        for (int option = 0; option < options.size(); option++) {
            view.put(
                    options.text(option, List.of()),
                    "fr=" + options.text(option, List.of("fr"))
                            + " aliases=" + options.aliases(option, List.of())
                            + " sales=" + sales.test(option)
                            + " pt=" + portugal.test(option)
                            + " support-fr=" + supportInFrance.test(option));
        }
        return new java.util.TreeMap<>(view);
    }
}
