package dev.autocomplete.engine.faulty;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Counter;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A param source over two options, {@code Apple} and {@code Banana}, that misbehaves on request: a param whose
 * config says {@code fault: <name>} always has that fault; otherwise typed text (or any span) that starts with
 * a fault's name gets it, so one tenant can show every fault over HTTP.
 */
final class FaultyEngine implements Engine {

    /** What to do instead of answering well. */
    enum Fault {
        /** Answer well. */
        NONE,
        /** Throw an {@link IllegalStateException} whose message quotes the typed text. */
        THROW,
        /** Throw a {@link NoClassDefFoundError}, as an engine missing a class would. */
        ERROR,
        /** Return null. */
        NULL,
        /** Answer one span match too few, and no option list at all (null). */
        WRONG_SIZE,
        /** Options with control characters and over-long texts next to one good option, {@code Fine}; span
         * values with a control character. */
        JUNK,
        /** 20,000 options. */
        MANY,
        /** Block for three seconds, ignoring interrupts. */
        HANG,
        /** Append a line to {@code .slow-<slug>} in the tenant directory, then answer well after two seconds. */
        SLOW,
        /** Answer {@code match} at once and well; {@code options} as {@link #SLOW} does. */
        SLOW_OPTIONS,
        /** Print a forged access log line on standard output and standard error, then answer well. */
        PRINT,
        /** Answer lists of the right size that throw an {@link IllegalStateException} when an element is read. */
        LAZY
    }

    static final List<String> FRUITS = List.of("Apple", "Banana");

    private final Map<String, Fault> faults;
    private final boolean cacheable;
    private final Counter optionsAsked;
    private final Path closedMarker;
    private final Path slowMarker;

    FaultyEngine(
            Map<String, Fault> faults, boolean cacheable, Counter optionsAsked, Path closedMarker, Path slowMarker) {
        this.faults = Map.copyOf(faults);
        this.cacheable = cacheable;
        this.optionsAsked = optionsAsked;
        this.closedMarker = closedMarker;
        this.slowMarker = slowMarker;
    }

    @Override
    public Set<String> paramTypes() {
        return faults.keySet();
    }

    @Override
    public boolean cacheable() {
        return cacheable;
    }

    @Override
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        Fault fault = faults.getOrDefault(ask.type(), Fault.NONE);
        for (String span : spans) {
            if (fault == Fault.NONE) {
                fault = asked(span);
            }
        }
        String quoted = String.join(" | ", spans);
        switch (misbehave(fault, quoted)) {
            case NULL -> {
                return null;
            }
            case WRONG_SIZE -> {
                return spans.stream().skip(1).map(span -> SpanMatch.NONE).toList();
            }
            case JUNK -> {
                return spans.stream().map(span -> SpanMatch.exact("Bell\u0007")).toList();
            }
            case LAZY -> {
                return throwingWhenRead(spans.size());
            }
            default -> {
                return spans.stream().map(FaultyEngine::matchFruit).toList();
            }
        }
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        optionsAsked.increment();
        Fault fault = faults.getOrDefault(ask.type(), Fault.NONE);
        if (fault == Fault.NONE) {
            fault = asked(typed);
        }
        if (fault == Fault.SLOW_OPTIONS) {
            mark(slowMarker);
            pause();
        }
        switch (misbehave(fault, typed)) {
            case NULL, WRONG_SIZE -> {
                return null;
            }
            case JUNK -> {
                return List.of(
                        Option.of("Bell\u0007"),
                        Option.of("Line\nbreak"),
                        Option.of("x".repeat(300)),
                        Option.of("Fine"));
            }
            case LAZY -> {
                return throwingWhenRead(1);
            }
            case MANY -> {
                List<Option> many = new ArrayList<>();
                for (int i = 0; i < 20_000; i++) {
                    many.add(Option.of("Option " + i));
                }
                return many;
            }
            default -> {
                String folded = typed.strip().toLowerCase(Locale.ROOT);
                return FRUITS.stream()
                        .filter(f -> f.toLowerCase(Locale.ROOT).startsWith(folded))
                        .map(Option::of)
                        .toList();
            }
        }
    }

    /** Does what the fault does before an answer; returns the fault for the answer's shape. */
    private Fault misbehave(Fault fault, String typed) {
        switch (fault) {
            case THROW -> throw new IllegalStateException("asked to throw on '" + typed + "'");
            case ERROR -> throw new NoClassDefFoundError("asked/to/Fail");
            case HANG -> hang();
            case SLOW -> {
                mark(slowMarker);
                pause();
            }
            case PRINT -> {
                String forged = "{\"time\":\"2026-01-01T00:00:00Z\",\"method\":\"POST\",\"path\":\"/forged\","
                        + "\"status\":299}";
                System.out.println(forged);
                System.err.print("partial line then ");
                System.err.println(forged);
            }
            default -> {
                // The answer's shape says the rest.
            }
        }
        return fault;
    }

    /** A list whose elements are computed when read, and whose computation fails. */
    private static <T> List<T> throwingWhenRead(int size) {
        return new java.util.AbstractList<>() {
            @Override
            public T get(int index) {
                throw new IllegalStateException("a lazy answer failed when read");
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** The fault named at the start of typed text, if any. */
    private static Fault asked(String typed) {
        String word = typed.strip().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        for (Fault fault : Fault.values()) {
            if (fault != Fault.NONE && word.equals(fault.name())) {
                return fault;
            }
        }
        return Fault.NONE;
    }

    private static SpanMatch matchFruit(String span) {
        String folded = span.strip().toLowerCase(Locale.ROOT);
        for (String fruit : FRUITS) {
            if (fruit.toLowerCase(Locale.ROOT).equals(folded)) {
                return SpanMatch.exact(fruit);
            }
        }
        boolean prefix = !folded.isEmpty()
                && FRUITS.stream().anyMatch(f -> f.toLowerCase(Locale.ROOT).startsWith(folded));
        return prefix ? SpanMatch.PREFIX : SpanMatch.NONE;
    }

    /** Blocks for three seconds and ignores interrupts, as a badly written engine would. */
    private static void hang() {
        long until = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < until) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
                // A hung engine does not listen.
            }
        }
    }

    /** Answers after two seconds, as a slow but working engine would. */
    private static void pause() {
        try {
            Thread.sleep(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        mark(closedMarker);
    }

    /** Appends one line to a marker file, so tests can count the calls too. */
    private static void mark(Path marker) {
        try {
            Files.writeString(marker, "yes\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
