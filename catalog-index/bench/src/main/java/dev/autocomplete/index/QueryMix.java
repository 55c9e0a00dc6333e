package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The queries of the lookup benchmarks, folded, drawn with seed 7 from real city names (the first 135k options of the
 * synthesized catalog) as people type them: 1,000 prefixes of 1 to 6 letters, and 1,000 prefixes of 5 to 7 letters
 * with two inner letters swapped.
 */
record QueryMix(String[] prefixes, String[] typos) {

    static QueryMix of(List<SyntheticCatalog.Option> options) {
        Random random = new Random(7);
        List<String> prefixList = new ArrayList<>();
        List<String> typoList = new ArrayList<>();
        while (typoList.size() < 1000) {
            String folded = Folding.fold(options.get(random.nextInt(135_000)).text());
            prefixList.add(folded.substring(0, Math.min(folded.length(), 1 + random.nextInt(6))));
            int length = 5 + random.nextInt(3);
            if (folded.length() >= length && folded.substring(0, length).chars().allMatch(Character::isLetter)) {
                char[] chars = folded.substring(0, length).toCharArray();
                int i = 1 + random.nextInt(length - 3);
                if (chars[i] != chars[i + 1]) {
                    char swap = chars[i];
                    chars[i] = chars[i + 1];
                    chars[i + 1] = swap;
                    typoList.add(new String(chars));
                }
            }
        }
        return new QueryMix(prefixList.toArray(String[]::new), typoList.toArray(String[]::new));
    }
}
