package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The date engine's configuration, validated.
 *
 * @param prompt the ghost text for the empty query, default {@code Remind me}
 * @param phrases the phrases that name the intent, default {@code [prompt]}
 * @param type the param type, default {@code date}
 * @param label the param's display label, default {@code Date}
 * @param required whether the date must be filled for the query to be ready, default true
 * @param cues words that may introduce the date ("on friday"), default {@code [on, for]}; may be empty
 * @param timeZone the zone in which "today" is reckoned, default UTC
 */
record DateSettings(
        String prompt,
        List<String> phrases,
        String type,
        String label,
        boolean required,
        List<String> cues,
        ZoneId timeZone) {

    private static final Set<String> KNOWN_KEYS =
            Set.of("prompt", "phrases", "type", "label", "required", "cues", "time_zone");
    // A type must survive the client's minting into a {{NAME_N}} token.
    private static final Pattern MINTABLE_TYPE = Pattern.compile("[A-Za-z0-9_]+(\\s+[A-Za-z0-9_]+)*");

    DateSettings {
        requireNonNull(prompt, "prompt is null");
        phrases = List.copyOf(requireNonNull(phrases, "phrases is null"));
        requireNonNull(type, "type is null");
        requireNonNull(label, "label is null");
        cues = List.copyOf(requireNonNull(cues, "cues is null"));
        requireNonNull(timeZone, "timeZone is null");
    }

    /** Reads and validates an engine config; every error names its key. */
    static DateSettings read(ConfigTree config) throws EngineConfigException {
        for (String key : config.keys()) {
            if (!KNOWN_KEYS.contains(key)) {
                throw config.error(key, "is not a known key; known keys are " + KNOWN_KEYS.stream().sorted().toList());
            }
        }
        String prompt = nonBlank(config, "prompt", config.string("prompt", "Remind me"));
        List<String> phrases;
        if (config.has("phrases")) {
            phrases = config.strings("phrases");
            if (phrases.isEmpty()) {
                throw config.error("phrases", "must list at least one phrase");
            }
            for (int i = 0; i < phrases.size(); i++) {
                requireWords(config, "phrases[" + i + "]", phrases.get(i));
            }
        } else {
            requireWords(config, "prompt", prompt);
            phrases = List.of(prompt);
        }
        String type = config.string("type", "date").strip();
        if (!MINTABLE_TYPE.matcher(type).matches()) {
            throw config.error("type", "must be letters, digits, underscores and spaces, got '" + type + "'");
        }
        String label = nonBlank(config, "label", config.string("label", "Date"));
        boolean required = config.bool("required", true);
        List<String> cues = config.has("cues") ? config.strings("cues") : List.of("on", "for");
        for (int i = 0; i < cues.size(); i++) {
            requireWords(config, "cues[" + i + "]", cues.get(i));
        }
        String zone = config.string("time_zone", "UTC");
        ZoneId timeZone;
        try {
            timeZone = ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw config.error("time_zone", "must be an IANA time zone such as Europe/Paris, got '" + zone + "'");
        }
        return new DateSettings(prompt, phrases, type, label, required, cues, timeZone);
    }

    /** The type as the client mints it into tokens: upper case, whitespace runs turned into {@code _}. */
    static String minted(String type) {
        return type.strip().replaceAll("\\s+", "_").toUpperCase(Locale.ROOT);
    }

    private static String nonBlank(ConfigTree config, String key, String value) throws EngineConfigException {
        if (value.isBlank()) {
            throw config.error(key, "must not be blank");
        }
        return value;
    }

    private static void requireWords(ConfigTree config, String key, String value) throws EngineConfigException {
        if (FoldedWords.wordsOf(value).isEmpty()) {
            throw config.error(key, "must contain a letter or digit, got '" + value + "'");
        }
    }
}
