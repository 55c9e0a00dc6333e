package dev.autocomplete.server.learning;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DailyFirstsTest {

    private static final Learning.ProductRef TRAVEL = new Learning.ProductRef("demo", "travel");
    private static final long NOON = 1_764_072_000L; // 2025-11-25T12:00:00Z

    @Test
    void an_address_ranks_an_option_once_a_day_and_others_and_other_options_are_apart() {
        DailyFirsts firsts = new DailyFirsts(1);
        assertTrue(firsts.take("198.51.100.7", TRAVEL, "paris", NOON));
        assertFalse(firsts.take("198.51.100.7", TRAVEL, "paris", NOON + 60), "the same day");
        assertTrue(firsts.take("198.51.100.7", TRAVEL, "porto", NOON), "another option");
        assertTrue(firsts.take("198.51.100.8", TRAVEL, "paris", NOON), "another address");
        assertTrue(firsts.take("198.51.100.7", new Learning.ProductRef("demo", "hotels"), "paris", NOON));
        assertTrue(firsts.take("198.51.100.7", new Learning.ProductRef("acme", "travel"), "paris", NOON));
        assertFalse(firsts.take("198.51.100.7", TRAVEL, "paris", NOON + 11 * 3600 + 3599), "23:59:59");
        assertTrue(firsts.take("198.51.100.7", TRAVEL, "paris", NOON + 12 * 3600), "the next day, UTC");
        assertFalse(firsts.take("198.51.100.7", TRAVEL, "paris", NOON + 12 * 3600 + 1));
        // A thread that read the clock before midnight and takes after another started the new day: today's filter.
        assertFalse(firsts.take("198.51.100.7", TRAVEL, "paris", NOON + 11 * 3600), "the day does not go back");
        assertFalse(firsts.take("198.51.100.7", TRAVEL, "paris", NOON + 12 * 3600 + 2), "nor start afresh");
    }

    @Test
    void a_cap_of_three_ranks_three_picks_and_a_cap_of_zero_every_one() {
        DailyFirsts three = new DailyFirsts(3);
        for (int i = 0; i < 3; i++) {
            assertTrue(three.take("2001:db8:5:6::/64", TRAVEL, "paris", NOON), "pick " + (i + 1));
        }
        assertFalse(three.take("2001:db8:5:6::/64", TRAVEL, "paris", NOON));
        DailyFirsts none = new DailyFirsts(0);
        for (int i = 0; i < 10; i++) {
            assertTrue(none.take("198.51.100.7", TRAVEL, "paris", NOON));
        }
    }

    /** The filter's one error, a first pick taken for a repeat, stays under one in a thousand at a million pairs. */
    @Test
    void after_a_million_pairs_in_a_day_fewer_than_one_first_pick_in_a_thousand_is_taken_for_a_repeat() {
        DailyFirsts firsts = new DailyFirsts(1);
        for (int i = 0; i < 1_000_000; i++) {
            firsts.take("10." + (i >>> 16) + "." + (i >>> 8 & 255) + "." + (i & 255), TRAVEL, "city " + i % 997, NOON);
        }
        int wrong = 0;
        for (int i = 0; i < 100_000; i++) {
            if (!firsts.take("192.0.2." + (i & 255), TRAVEL, "town " + i, NOON)) {
                wrong++;
            }
        }
        assertTrue(wrong < 100, wrong + " of 100,000 first picks taken for repeats");
    }
}
