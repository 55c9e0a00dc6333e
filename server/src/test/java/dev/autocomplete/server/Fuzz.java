package dev.autocomplete.server;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Property checks over generated inputs: a property runs on a bounded number of inputs drawn from a seeded
 * random, and a failure names the seed, the try and the input, so {@code -Dfuzz.seed=N} replays it. Each run
 * draws a new seed (a fixed one would only ever repeat the same inputs); {@code -Dfuzz.tries=N} runs more.
 */
public final class Fuzz {

    private Fuzz() {}

    /** Checks {@code property} on {@code tries} inputs made by {@code generator}; a failure shows the input. */
    public static <T> void check(
            int tries, Function<SplittableRandom, T> generator, Function<T, String> show, Consumer<T> property) {
        long seed = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());
        int count = Integer.getInteger("fuzz.tries", tries);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            T input = generator.apply(random);
            try {
                property.accept(input);
            } catch (Throwable failure) {
                throw new AssertionError(
                        "Property failed on try " + i + " with -Dfuzz.seed=" + seed + " for input " + show.apply(input)
                                + ": " + failure,
                        failure);
            }
        }
    }

    /** Bytes shown as text when they are UTF-8, else as hex. */
    public static String show(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.contains("\uFFFD") ? "hex " + HexFormat.of().formatHex(bytes) : text;
    }

    /** One of the values. */
    @SafeVarargs
    public static <T> T oneOf(SplittableRandom random, T... values) {
        return values[random.nextInt(values.length)];
    }

    /**
     * A string of up to {@code maxLength} characters, drawn from the kinds that break parsers: ASCII, JSON's
     * special characters, two- and three-byte characters, characters outside the BMP, lone surrogates, controls.
     */
    public static String text(SplittableRandom random, int maxLength) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            switch (random.nextInt(9)) {
                case 0, 1, 2 -> text.append((char) random.nextInt(0x20, 0x7f));
                case 3 -> text.append(oneOf(random, '"', '\\', '/', '{', '}', '[', ']', ':', ',', ' '));
                case 4 -> text.append((char) random.nextInt(0x80, 0x800));
                case 5 -> text.append((char) random.nextInt(0x800, 0xd800));
                case 6 -> text.appendCodePoint(random.nextInt(0x10000, 0x110000));
                case 7 -> text.append((char) random.nextInt(0xd800, 0xe000)); // a lone surrogate
                default -> text.append((char) random.nextInt(0, 0x20));
            }
        }
        return text.toString();
    }
}
