package dev.autocomplete.server.config;

import java.time.Duration;

/**
 * How the server learns from picks ({@code learning.*} in {@code autocomplete.yaml}).
 *
 * @param halfLife how long until a pick counts half ({@code learning.half-life-days}, 14)
 * @param applyInterval how often learned credit is read from the store and applied to rankings, by every replica
 *     ({@code learning.apply-seconds}, 60): learning shows within this much after a pick, and a product's
 *     ranking (and so its cached answers) changes at most this often
 * @param sessions sessions whose offers are remembered for the honest-pick check ({@code learning.sessions})
 * @param picksPerAddressHour picks credited per client address and hour at most
 *     ({@code learning.picks-per-address-hour})
 * @param picksPerKeyHour picks credited per key and hour at most ({@code learning.picks-per-key-hour})
 * @param queue picks waiting to be written at most; more are dropped and counted ({@code learning.queue})
 * @param sessionsPerAddressHour new sessions per client address and hour that the honest-pick memory keeps apart
 *     from the sessions made up for requests without one ({@code learning.sessions-per-address-hour}); more share
 *     the made-up ones' table
 */
public record LearningSettings(
        Duration halfLife,
        Duration applyInterval,
        int sessions,
        int picksPerAddressHour,
        int picksPerKeyHour,
        int queue,
        int sessionsPerAddressHour) {

    /** The default of {@code learning.sessions-per-address-hour}. */
    public static final int SESSIONS_PER_ADDRESS_HOUR = 1_000;

    /** The defaults. */
    public static final LearningSettings DEFAULTS = new LearningSettings(
            Duration.ofDays(14), Duration.ofSeconds(60), 20_000, 200, 100_000, 10_000, SESSIONS_PER_ADDRESS_HOUR);

    /** Settings with the default share of new sessions per address. */
    public LearningSettings(
            Duration halfLife,
            Duration applyInterval,
            int sessions,
            int picksPerAddressHour,
            int picksPerKeyHour,
            int queue) {
        this(halfLife, applyInterval, sessions, picksPerAddressHour, picksPerKeyHour, queue, SESSIONS_PER_ADDRESS_HOUR);
    }
}
