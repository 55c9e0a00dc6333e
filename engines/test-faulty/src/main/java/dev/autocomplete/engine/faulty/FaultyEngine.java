package dev.autocomplete.engine.faulty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;

/**
 * Misbehaves on request: a query that starts with {@code throw}, {@code error}, {@code null}, {@code blank},
 * {@code duplicate}, {@code many} or {@code hang} gets that fault; {@code slow} adds a line to the file {@code .slow-<slug>} in the tenant directory and answers after two
 * seconds; any other query gets a normal answer
 * (prompt {@code Faulty ok}, one {@code thing} suggestion).
 */
final class FaultyEngine implements Engine {

    private final Path closedMarker;
    private final Path slowMarker;

    FaultyEngine(Path closedMarker, Path slowMarker) {
        this.closedMarker = closedMarker;
        this.slowMarker = slowMarker;
    }

    @Override
    public Reading read(Query query) {
        String raw = query.rawQuery();
        if (raw.startsWith("throw")) {
            throw new IllegalStateException("asked to throw");
        }
        if (raw.startsWith("error")) {
            throw new NoClassDefFoundError("asked/to/Fail");
        }
        if (raw.startsWith("null")) {
            return null;
        }
        if (raw.startsWith("blank")) {
            return answer(new Reading.ParamSuggestion(" ", "Blank", false, List.of()));
        }
        if (raw.startsWith("duplicate")) {
            return answer(thing(List.of("first")), thing(List.of("second")));
        }
        if (raw.startsWith("many")) {
            List<Reading.Option> options = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                options.add(Reading.Option.of("Option " + i));
            }
            return answer(new Reading.ParamSuggestion("thing", "Thing", true, options));
        }
        if (raw.startsWith("hang")) {
            hang();
        }
        if (raw.startsWith("slow")) {
            mark(slowMarker);
            pause();
            return new Reading(null, List.of(), "Faulty slow", List.of(thing(List.of("Apple"))));
        }
        return answer(thing(List.of("Apple", "Banana")));
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

    private static Reading.ParamSuggestion thing(List<String> options) {
        return new Reading.ParamSuggestion("thing", "Thing", true, options.stream().map(Reading.Option::of).toList());
    }

    private static Reading answer(Reading.ParamSuggestion... suggestions) {
        return new Reading(null, List.of(), "Faulty ok", List.of(suggestions));
    }

    @Override
    public Set<String> paramTypes() {
        return Set.of("thing");
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
