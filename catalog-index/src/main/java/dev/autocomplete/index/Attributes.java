package dev.autocomplete.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The attributes of one segment's options, compact: each distinct (name, folded value) pair is kept once and
 * numbered; an option holds the numbers of its pairs, as {@code char}s while there are fewer than 65,536 pairs (two
 * attributes cost an option 8 bytes: its start and two numbers). A segment whose options have no attributes holds
 * nothing ({@link #NONE}). Immutable.
 */
final class Attributes {

    static final Attributes NONE = new Attributes(Map.of(), new int[0], new char[0], null);

    /** Pair number by {@code name + '\0' + folded value}. */
    private final Map<String, Integer> pairs;
    /** The same keys by number. */
    private final String[] keys;
    /** Where option {@code i}'s pair numbers start; {@code starts[size]} ends the last. */
    private final int[] starts;

    private final char[] narrow;
    private final int[] wide;

    private Attributes(Map<String, Integer> pairs, int[] starts, char[] narrow, int[] wide) {
        this.pairs = pairs;
        this.keys = new String[pairs.size()];
        pairs.forEach((key, number) -> keys[number] = key);
        this.starts = starts;
        this.narrow = narrow;
        this.wide = wide;
    }

    /** Attributes taken option by option, in order, every option once; {@link #NONE} when no option has any. */
    static final class Builder {
        private final int size;
        private final Map<String, Integer> pairs = new HashMap<>();
        /** Null until an option has attributes: the options before it hold none (their starts are all 0). */
        private int[] starts;

        private int[] numbers = new int[16];
        private int count;

        Builder(int size) {
            this.size = size;
        }

        void add(int option, Map<String, List<String>> attributes) {
            if (starts == null) {
                if (attributes.isEmpty()) {
                    return;
                }
                starts = new int[size + 1];
            }
            starts[option] = count;
            attributes.forEach((name, values) -> {
                for (String value : values) {
                    if (count == numbers.length) {
                        numbers = Arrays.copyOf(numbers, count * 2);
                    }
                    numbers[count++] = pairs.computeIfAbsent(key(name, value), k -> pairs.size());
                }
            });
        }

        Attributes build() {
            if (starts == null) {
                return NONE;
            }
            starts[size] = count;
            if (pairs.size() <= Character.MAX_VALUE) {
                char[] narrow = new char[count];
                for (int i = 0; i < count; i++) {
                    narrow[i] = (char) numbers[i];
                }
                return new Attributes(Map.copyOf(pairs), starts, narrow, null);
            }
            return new Attributes(Map.copyOf(pairs), starts, null, Arrays.copyOf(numbers, count));
        }
    }

    private static String key(String name, String value) {
        return name + '\0' + Folding.fold(value);
    }

    /** The attribute names some option has, each once, into {@code names}. */
    void addNames(Set<String> names) {
        for (String key : keys) {
            names.add(key.substring(0, key.indexOf('\0')));
        }
    }

    int[] pairs(String name, Iterable<String> values) {
        List<Integer> found = new ArrayList<>();
        for (String value : values) {
            Integer pair = pairs.get(key(name, value));
            if (pair != null) {
                found.add(pair);
            }
        }
        return found.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /** Whether the option holds one of these pair numbers (sorted). */
    boolean holdsAny(int option, int[] wanted) {
        if (wanted.length == 0 || option + 1 >= starts.length) {
            return false;
        }
        for (int i = starts[option]; i < starts[option + 1]; i++) {
            int pair = narrow != null ? narrow[i] : wide[i];
            if (Arrays.binarySearch(wanted, pair) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The option's attributes again (values folded), to build another segment from. */
    Map<String, List<String>> of(int option) {
        if (option + 1 >= starts.length || starts[option] == starts[option + 1]) {
            return Map.of();
        }
        Map<String, List<String>> attributes = new java.util.LinkedHashMap<>();
        for (int i = starts[option]; i < starts[option + 1]; i++) {
            String key = keys[narrow != null ? narrow[i] : wide[i]];
            int cut = key.indexOf('\0');
            attributes
                    .computeIfAbsent(key.substring(0, cut), n -> new ArrayList<>())
                    .add(key.substring(cut + 1));
        }
        return attributes;
    }

    /** Roughly the bytes the arrays hold (the pair names are counted once each). */
    long heapBytes() {
        long bytes = 4L * starts.length + (narrow != null ? 2L * narrow.length : 4L * (wide == null ? 0 : wide.length));
        for (String key : pairs.keySet()) {
            bytes += 48 + 2L * key.length();
        }
        return bytes;
    }
}
