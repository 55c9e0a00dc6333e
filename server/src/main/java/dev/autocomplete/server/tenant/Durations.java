package dev.autocomplete.server.tenant;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as written in configuration and on the command line: {@code 90s}, {@code 15m}, {@code 12h}, {@code 30d}. */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})\\s*([smhd])");

    private Durations() {}

    /** Parses {@code N} followed by {@code s}, {@code m}, {@code h} or {@code d}; throws with a readable message. */
    public static Duration parse(String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 90s, 15m, 12h or 30d");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
