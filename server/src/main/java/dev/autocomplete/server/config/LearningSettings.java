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
 * @param picksPerAddressOptionDay picks of one option that re-rank it per client address and day (UTC), at most
 *     ({@code learning.picks-per-address-option-day}, 1; 0 for no such cap): more are counted, not ranked by
 * @param minPicks ranked picks an option needs, decayed, before learning changes an order ({@code learning.min-picks},
 *     1): with the default cap of one ranked pick per address, option and day, 2 takes picks of two clients (or of one
 *     on two days), so that no one client alone moves an option for everyone
 */
public record LearningSettings(
        Duration halfLife,
        Duration applyInterval,
        int sessions,
        int picksPerAddressHour,
        int picksPerKeyHour,
        int queue,
        int sessionsPerAddressHour,
        int picksPerAddressOptionDay,
        int minPicks) {

    /** The default of {@code learning.sessions-per-address-hour}. */
    public static final int SESSIONS_PER_ADDRESS_HOUR = 1_000;

    /** The default of {@code learning.picks-per-address-option-day}. */
    public static final int PICKS_PER_ADDRESS_OPTION_DAY = 1;

    /** The default of {@code learning.min-picks}. */
    public static final int MIN_PICKS = 1;

    /** Settings that need the default {@code learning.min-picks}. */
    public LearningSettings(
            Duration halfLife,
            Duration applyInterval,
            int sessions,
            int picksPerAddressHour,
            int picksPerKeyHour,
            int queue,
            int sessionsPerAddressHour,
            int picksPerAddressOptionDay) {
        this(
                halfLife,
                applyInterval,
                sessions,
                picksPerAddressHour,
                picksPerKeyHour,
                queue,
                sessionsPerAddressHour,
                picksPerAddressOptionDay,
                MIN_PICKS);
    }

    /** The defaults. */
    public static final LearningSettings DEFAULTS = new LearningSettings(
            Duration.ofDays(14),
            Duration.ofSeconds(60),
            20_000,
            200,
            100_000,
            10_000,
            SESSIONS_PER_ADDRESS_HOUR,
            PICKS_PER_ADDRESS_OPTION_DAY);

    /** Settings with the default share of new sessions per address and of ranked picks per address and option. */
    public LearningSettings(
            Duration halfLife,
            Duration applyInterval,
            int sessions,
            int picksPerAddressHour,
            int picksPerKeyHour,
            int queue) {
        this(
                halfLife,
                applyInterval,
                sessions,
                picksPerAddressHour,
                picksPerKeyHour,
                queue,
                SESSIONS_PER_ADDRESS_HOUR,
                PICKS_PER_ADDRESS_OPTION_DAY);
    }

    /** These settings with another cap of ranked picks per address, option and day (0 for none). */
    public LearningSettings withPicksPerAddressOptionDay(int perDay) {
        return new LearningSettings(
                halfLife,
                applyInterval,
                sessions,
                picksPerAddressHour,
                picksPerKeyHour,
                queue,
                sessionsPerAddressHour,
                perDay,
                minPicks);
    }

    /** These settings with another {@code learning.min-picks}. */
    public LearningSettings withMinPicks(int picks) {
        return new LearningSettings(
                halfLife,
                applyInterval,
                sessions,
                picksPerAddressHour,
                picksPerKeyHour,
                queue,
                sessionsPerAddressHour,
                picksPerAddressOptionDay,
                picks);
    }

    /**
     * The credit an option needs for learning to change an order: {@link #minPicks} less about half a pick. Not whole
     * picks: a pick's credit decays from the moment it is made, so half of one (what a pick made with nothing typed
     * counts once letters are typed) was always just under ½ and changed nothing. At 0.45 ({@code min-picks: 1}), half a
     * pick counts for its first two days at the default half-life of 14 days, and one whole pick for about 16 days;
     * each pick more adds 1.
     */
    public double minCredit() {
        return minPicks - 0.55;
    }
}
