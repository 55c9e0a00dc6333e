package dev.autocomplete.server.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.protocol.Offered;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The session memory of the honest-pick check: bounded, the least recently seen forgotten first, 48 offers each, the
 * sessions made up for answers kept apart from those clients name.
 */
class ShownOptionsTest {

    private static final long NOW = 1_800_000_000L;

    private static Offered offer(long... options) {
        return Offered.of(List.of(new Offered.Offer("city", true, options)));
    }

    @Test
    void remembers_at_most_max_sessions() {
        ShownOptions shown = new ShownOptions(100, 1_000_000);
        for (int i = 0; i < 10_000; i++) {
            shown.record("session-" + i, offer(i), NOW, () -> "203.0.113.1");
        }
        assertTrue(shown.size() <= 100, "remembered " + shown.size());
        assertEquals("city", shown.attribute("session-9999", 9999, type -> false, NOW));
        assertNull(shown.attribute("session-0", 0, type -> false, NOW));
    }

    @Test
    void a_session_seen_again_outlives_newer_ones_seen_once() {
        ShownOptions shown = new ShownOptions(100, 1_000_000);
        shown.record("kept", offer(7), NOW, () -> "203.0.113.1");
        for (int i = 0; i < 1_000; i++) {
            shown.record("other-" + i, offer(i), NOW, () -> "203.0.113.1");
            assertEquals("city", shown.attribute("kept", 7, type -> false, NOW), "after " + i + " others");
        }
        assertTrue(shown.size() <= 100, "remembered " + shown.size());
    }

    @Test
    void a_session_keeps_its_last_48_offers() {
        ShownOptions shown = new ShownOptions(100, 1_000_000);
        for (long option = 1; option <= 60; option++) {
            shown.record("s", offer(option), NOW + option, () -> "203.0.113.1");
        }
        // Each answer also notes its suggestion (a pill), one offer renewed each time: 61 in all, the last 48 kept.
        for (long option = 1; option <= 13; option++) {
            assertNull(shown.attribute("s", option, type -> false, NOW + 60), "option " + option);
        }
        for (long option = 14; option <= 60; option++) {
            assertEquals("city", shown.attribute("s", option, type -> false, NOW + 60), "option " + option);
        }
        assertTrue(shown.offeredType("s", "city", NOW + 60));
        assertTrue(shown.creditOnce("s", "city", 60));
        assertFalse(shown.creditOnce("s", "city", 60));
    }

    @Test
    void a_session_made_up_for_an_answer_is_remembered_and_bounded_as_any() {
        ShownOptions shown = new ShownOptions(100, 1_000_000);
        shown.recordNew("new-0", offer(5), NOW);
        assertEquals("city", shown.attribute("new-0", 5, type -> false, NOW));
        shown.record("new-0", offer(6), NOW + 1, () -> "203.0.113.1"); // the client sends it back with its next request
        assertEquals("city", shown.attribute("new-0", 5, type -> false, NOW + 1));
        assertEquals("city", shown.attribute("new-0", 6, type -> false, NOW + 1));
        for (int i = 1; i < 10_000; i++) {
            shown.recordNew("new-" + i, offer(i), NOW);
        }
        assertTrue(shown.size() <= 100, "remembered " + shown.size());
        assertEquals("city", shown.attribute("new-9999", 9999, type -> false, NOW));
        assertNull(shown.attribute("new-1", 1, type -> false, NOW), "made up and never asked for: pushed out");
        assertEquals(
                "city",
                shown.attribute("new-0", 5, type -> false, NOW),
                "made up, then sent back by its client: kept with the sessions clients name");
        long before = shown.size();
        shown.recordNew("nothing", Offered.of(List.of()), NOW);
        assertEquals(before, shown.size(), "an answer that offered nothing remembers no session");
    }

    @Test
    void answers_to_requests_without_a_session_id_never_push_out_the_sessions_clients_name() {
        ShownOptions shown = new ShownOptions(100, 1_000_000);
        for (int i = 0; i < 40; i++) {
            shown.record("named-" + i, offer(i), NOW, () -> "203.0.113.1");
        }
        for (int i = 0; i < 100_000; i++) {
            shown.recordNew(java.util.UUID.randomUUID().toString(), offer(i), NOW);
        }
        for (int i = 0; i < 40; i++) {
            assertEquals("city", shown.attribute("named-" + i, i, type -> false, NOW), "named-" + i);
        }
        assertTrue(shown.size() <= 100, "remembered " + shown.size());
    }

    @Test
    void a_made_up_session_answers_every_question_before_and_after_its_next_answer() {
        ShownOptions shown = new ShownOptions(100, 1_000_000);
        shown.recordNew("a", offer(5), NOW);
        assertTrue(shown.offeredType("a", "city", NOW), "the first answer's suggestion, asked first");
        shown.recordNew("b", offer(5), NOW);
        assertTrue(shown.creditOnce("b", "city", 5), "a credit, asked first");
        assertFalse(shown.creditOnce("b", "city", 5));
        shown.recordNew("c", offer(5), NOW);
        shown.record("c", offer(6), NOW + 1, () -> "203.0.113.1"); // its next answer, before anything was asked
        assertEquals("city", shown.attribute("c", 5, type -> false, NOW + 1));
        assertEquals("city", shown.attribute("c", 6, type -> false, NOW + 1));
        shown.recordNew("d", offer(5), NOW);
        long late = NOW + ShownOptions.WINDOW.toSeconds() + 1;
        assertNull(shown.attribute("d", 5, type -> false, late), "the first answer keeps its own time");
    }

    @Test
    void a_client_naming_new_sessions_beyond_its_hourly_share_pushes_no_one_elses_session_out() {
        // Within the share (the behaviour before it): a flood of named sessions pushes an honest one out.
        assertNull(flooded(1_000_000).attribute("honest", 7, type -> false, NOW), "pushed out without a share");
        ShownOptions shown = flooded(10);
        assertEquals("city", shown.attribute("honest", 7, type -> false, NOW), "the honest session is kept");
        assertEquals(
                "city",
                shown.attribute("flood-late-199", 199, type -> false, NOW),
                "the flood's latest session is still remembered, in the made-up sessions' table");
        assertTrue(shown.size() <= 100, "remembered " + shown.size());
        assertEquals(
                "city",
                shown.attribute("other-client", 8, type -> false, NOW),
                "another client's new session still goes to the named ones");
    }

    /**
     * A memory of 100 sessions with {@code share} new sessions an hour per client: one honest session from one
     * address, 10,000 from another (each sent twice, as a client asking again would), then one from a third.
     */
    private static ShownOptions flooded(int share) {
        ShownOptions shown = new ShownOptions(100, share);
        shown.record("honest", offer(7), NOW, () -> "198.51.100.7");
        for (int i = 0; i < 10_000; i++) {
            shown.record("flood-" + i, offer(i), NOW, () -> "203.0.113.1");
            shown.record("flood-" + i, offer(i), NOW, () -> "203.0.113.1");
        }
        shown.record("other-client", offer(8), NOW, () -> "192.0.2.44");
        for (int i = 0; i < 200; i++) {
            shown.record("flood-late-" + i, offer(i), NOW, () -> "203.0.113.1");
        }
        return shown;
    }
}
