package dev.autocomplete.server.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link Circuit}'s states, driven by the clock values its callers pass in. */
class CircuitTest {

    private static final long SECOND = 1_000_000_000L;

    private final Circuit circuit = new Circuit(3, Duration.ofSeconds(10));

    private void fail(int times, long now) {
        for (int i = 0; i < times; i++) {
            assertTrue(circuit.allow(now));
            circuit.failed(now);
        }
    }

    @Test
    void a_closed_circuit_calls_the_engine_until_failures_in_a_row_reach_the_threshold() {
        fail(2, 0);
        assertEquals(Circuit.State.CLOSED, circuit.state(0));
        assertTrue(circuit.allow(0));
        assertEquals(Circuit.Change.OPENED, circuit.failed(0));
        assertEquals(Circuit.Change.NONE, circuit.failed(SECOND), "a late failure while open changes nothing");

        assertEquals(Circuit.State.OPEN, circuit.state(0));
        assertFalse(circuit.allow(SECOND));
    }

    @Test
    void a_success_between_failures_starts_the_count_again() {
        fail(2, 0);
        assertTrue(circuit.allow(0));
        circuit.succeeded();
        fail(2, 0);

        assertEquals(Circuit.State.CLOSED, circuit.state(0));
        assertTrue(circuit.allow(0));
    }

    /** An engine slow only in options: its quick match answers in time in every reading that runs out of time. */
    @Test
    void readings_that_run_out_of_time_open_the_circuit_though_other_calls_answered_in_time_between_them() {
        assertEquals(Circuit.Change.NONE, circuit.timedOut(0));
        circuit.succeeded();
        assertEquals(Circuit.Change.NONE, circuit.timedOut(0));
        circuit.succeeded();
        assertEquals(Circuit.Change.OPENED_BY_TIMEOUTS, circuit.timedOut(0));
        assertEquals(Circuit.State.OPEN, circuit.state(0));
    }

    @Test
    void a_reading_in_time_ends_the_row_of_timeouts() {
        circuit.timedOut(0);
        circuit.timedOut(0);
        circuit.succeeded();
        circuit.readingInTime();
        circuit.timedOut(0);
        circuit.timedOut(0);
        assertEquals(Circuit.State.CLOSED, circuit.state(0));
    }

    @Test
    void a_trial_that_succeeds_leaves_the_row_of_timeouts_to_the_reading() {
        for (int i = 0; i < 3; i++) {
            circuit.timedOut(0);
        }
        assertTrue(circuit.allow(10 * SECOND));
        assertEquals(Circuit.Change.CLOSED, circuit.succeeded(), "its match, the trial, answered in time");
        assertEquals(
                Circuit.Change.OPENED_BY_TIMEOUTS,
                circuit.timedOut(10 * SECOND),
                "its options ran out of time again in the trial's reading");
    }

    @Test
    void an_open_circuit_lets_one_trial_through_once_its_period_is_over() {
        fail(3, 0);
        assertFalse(circuit.allow(10 * SECOND - 1));
        assertEquals(Circuit.State.HALF_OPEN, circuit.state(10 * SECOND));

        assertTrue(circuit.allow(10 * SECOND), "the trial");
        assertFalse(circuit.allow(10 * SECOND), "no second call while the trial runs");
        assertFalse(circuit.allow(11 * SECOND));
    }

    @Test
    void a_trial_that_succeeds_closes_the_circuit() {
        fail(3, 0);
        assertTrue(circuit.allow(10 * SECOND));
        assertEquals(Circuit.Change.CLOSED, circuit.succeeded());
        assertEquals(Circuit.Change.NONE, circuit.succeeded(), "closed already");

        assertEquals(Circuit.State.CLOSED, circuit.state(10 * SECOND));
        assertTrue(circuit.allow(10 * SECOND));
        assertTrue(circuit.allow(10 * SECOND));
    }

    @Test
    void a_trial_that_fails_opens_the_circuit_for_another_whole_period() {
        fail(3, 0);
        assertTrue(circuit.allow(12 * SECOND));
        assertEquals(Circuit.Change.OPENED_AGAIN, circuit.failed(12 * SECOND));

        assertEquals(Circuit.State.OPEN, circuit.state(12 * SECOND));
        assertFalse(circuit.allow(22 * SECOND - 1));
        assertTrue(circuit.allow(22 * SECOND));
    }

    @Test
    void the_clock_may_wrap_around() {
        long nearTheEnd = Long.MAX_VALUE - SECOND;
        fail(3, nearTheEnd);

        assertFalse(circuit.allow(nearTheEnd + 5 * SECOND), "still open, though the sum overflowed");
        assertTrue(circuit.allow(nearTheEnd + 10 * SECOND));
    }
}
