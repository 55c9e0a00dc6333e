package dev.autocomplete.testkit;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A small engine as an author would write one, found on the test class path through
 * {@code META-INF/services}: it serves every param that names {@code colors} with a fixed list, or with the list
 * it is built with when a test passes it in.
 */
public final class ColorsEngineFactory implements EngineFactory {

    private final List<String> colors;

    /** The one {@link java.util.ServiceLoader} finds. */
    public ColorsEngineFactory() {
        this(List.of("Red", "Green", "Blue"));
    }

    ColorsEngineFactory(List<String> colors) {
        this.colors = List.copyOf(colors);
    }

    @Override
    public String name() {
        return "colors";
    }

    @Override
    public Engine create(EngineContext context) {
        Set<String> types =
                Set.copyOf(context.params().stream().map(p -> p.type()).toList());
        return new Engine() {
            @Override
            public Set<String> paramTypes() {
                return types;
            }

            @Override
            public List<SpanMatch> match(Ask ask, List<String> spans) {
                return spans.stream()
                        .map(span -> {
                            String typed = TextFolding.fold(span);
                            for (String color : colors) {
                                String folded = TextFolding.fold(color);
                                if (folded.equals(typed)) {
                                    return SpanMatch.exact(color);
                                }
                                if (!typed.isEmpty() && folded.startsWith(typed)) {
                                    return SpanMatch.PREFIX;
                                }
                            }
                            return SpanMatch.NONE;
                        })
                        .toList();
            }

            @Override
            public List<Option> options(Ask ask, String typed) {
                String folded = TextFolding.fold(typed);
                return colors.stream()
                        .filter(c -> TextFolding.fold(c).startsWith(folded.toLowerCase(Locale.ROOT)))
                        .limit(ask.limit())
                        .map(Option::of)
                        .toList();
            }
        };
    }
}
