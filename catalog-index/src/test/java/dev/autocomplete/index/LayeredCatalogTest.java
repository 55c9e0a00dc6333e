package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * A main catalog less its gone options, with a delta, against one catalog of the same options: the same options named
 * exactly by each text, alias and prefix of them, short (answered from the merged trie table) and long.
 */
class LayeredCatalogTest {

    @Test
    void exact_options_of_a_main_catalog_and_its_delta_are_those_of_one_catalog_of_both() {
        Random random = new Random(41);
        List<CatalogEntry> all = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            // Short texts and aliases shared by several options, some across the main and the delta.
            String text = word(random) + (random.nextInt(3) == 0 ? " " + word(random) : "");
            all.add(new CatalogEntry(text + " " + i, List.of("a" + (i % 40), word(random)), 1 + i, Map.of()));
        }
        List<CatalogEntry> mainEntries = all.subList(0, 1_100);
        List<CatalogEntry> deltaEntries = all.subList(1_100, all.size());
        IntPredicate gone = option -> option % 9 == 0;
        LayeredCatalog layered =
                new LayeredCatalog(new OptionCatalog(mainEntries), gone, new OptionCatalog(deltaEntries));
        List<CatalogEntry> kept = new ArrayList<>();
        for (int i = 0; i < mainEntries.size(); i++) {
            if (!gone.test(i)) {
                kept.add(mainEntries.get(i));
            }
        }
        kept.addAll(deltaEntries);
        OptionCatalog one = new OptionCatalog(kept);

        int named = 0;
        for (CatalogEntry entry : all) {
            List<String> names = new ArrayList<>(entry.aliases());
            names.add(entry.text());
            for (String name : names) {
                String folded = Folding.fold(name);
                for (int length = 1; length <= Math.min(folded.length(), 9); length++) {
                    String typed = folded.substring(0, length);
                    List<String> expected = texts(one, one.exactOptions(typed, null));
                    List<String> found = new ArrayList<>();
                    Arrays.stream(layered.exactOptions(typed)).forEach(id -> found.add(layered.text(id)));
                    assertEquals(expected, found.stream().sorted().toList(), typed);
                    named += expected.isEmpty() ? 0 : 1;
                }
            }
        }
        assertTrue(named > 1_000, "queries naming an option: " + named);
    }

    private static List<String> texts(OptionCatalog catalog, int[] options) {
        return Arrays.stream(options).mapToObj(catalog::text).sorted().toList();
    }

    private static String word(Random random) {
        StringBuilder word = new StringBuilder();
        for (int i = 1 + random.nextInt(7); i > 0; i--) {
            word.append("abcdeo".charAt(random.nextInt(6)));
        }
        return word.toString();
    }
}
