package dev.autocomplete.server.analytics;

import dev.autocomplete.server.protocol.Placeholders;
import dev.autocomplete.server.reading.ProductModel;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The text a user typed for the active param when the answer offered it no option: folded, read from the end of
 * {@code raw_query} after the last placeholder, from just after the last cue word of the param ("to" for a
 * destination) or, with no cue, the last word alone. Never the whole query: at most {@link #MAX_CHARS} characters,
 * else nothing.
 */
final class UnmatchedSpan {

    static final int MAX_CHARS = 40;

    private UnmatchedSpan() {}

    /** The span, or null when nothing was typed for the param (or it is too long to be a value). */
    static String of(String rawQuery, ProductModel.Param param) {
        int start = 0;
        for (Placeholders.Token token : Placeholders.find(rawQuery)) {
            start = token.end();
        }
        String tail = TextFolding.fold(rawQuery.substring(start)).strip();
        if (tail.isEmpty()) {
            return null;
        }
        List<String> words = List.of(tail.split("\\s+"));
        Set<String> cues = new HashSet<>();
        if (param != null) {
            cues.addAll(param.cues());
            param.translatedCues().values().forEach(cues::addAll);
        }
        int from = words.size() - 1;
        for (int i = words.size() - 1; i >= 0; i--) {
            if (cues.contains(words.get(i))) {
                from = i + 1;
                break;
            }
        }
        String span = String.join(" ", words.subList(from, words.size()));
        return span.isEmpty() || span.length() > MAX_CHARS ? null : span;
    }
}
