package dev.autocomplete.server.engines;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The one watchdog that keeps the readings' budgets: overdue runs are given up on, forgotten ones never. */
class DeadlinesTest {

    private static final long MILLIS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void a_run_past_its_deadline_is_completed_as_overdue_and_not_before() throws Exception {
        Deadlines deadlines = new Deadlines();
        CompletableFuture<String> future = new CompletableFuture<>();
        long start = System.nanoTime();
        Deadlines.Run run = deadlines.watch(future, start + 50 * MILLIS);
        ExecutionException overdue = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
        long waited = System.nanoTime() - start;
        deadlines.forget(run);
        assertInstanceOf(Deadlines.Overdue.class, overdue.getCause());
        assertTrue(
                waited >= 50 * MILLIS, "given up on " + waited / MILLIS + " ms after the start, before its deadline");
    }

    @Test
    void a_forgotten_run_is_left_alone_and_the_watchdog_wakes_for_the_next() throws Exception {
        Deadlines deadlines = new Deadlines();
        CompletableFuture<String> finished = new CompletableFuture<>();
        Deadlines.Run first = deadlines.watch(finished, System.nanoTime() + 20 * MILLIS);
        finished.complete("answer");
        deadlines.forget(first);
        CompletableFuture<String> forgotten = new CompletableFuture<>();
        deadlines.forget(deadlines.watch(forgotten, System.nanoTime() + 20 * MILLIS));
        // With nothing in flight the watchdog sleeps; a run watched afterwards still gets its deadline kept.
        Thread.sleep(100);
        assertFalse(forgotten.isDone(), "a run no longer watched was completed");
        CompletableFuture<String> later = new CompletableFuture<>();
        Deadlines.Run run = deadlines.watch(later, System.nanoTime() + 20 * MILLIS);
        ExecutionException overdue = assertThrows(ExecutionException.class, () -> later.get(5, TimeUnit.SECONDS));
        deadlines.forget(run);
        assertInstanceOf(Deadlines.Overdue.class, overdue.getCause());
        assertTrue(finished.get().equals("answer"));
    }
}
