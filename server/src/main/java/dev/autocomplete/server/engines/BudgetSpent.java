package dev.autocomplete.server.engines;

/**
 * Thrown by work that notices its deadline has passed before it asks an engine another question: {@link EngineRunner}
 * answers it as a timeout. So a reading given up on stops at its next question instead of spending a carrier
 * thread's CPU on an answer no one waits for, and a reading on the request's thread ({@link EngineRunner#runHere})
 * keeps the budget too. No stack trace: it is control flow, thrown at most once a request.
 */
public final class BudgetSpent extends RuntimeException {

    public BudgetSpent() {
        super("the reading's budget is spent", null, false, false);
    }

    /** Throws when {@code deadlineNanos} ({@link System#nanoTime()}) has passed. */
    public static void check(long deadlineNanos) {
        if (System.nanoTime() - deadlineNanos > 0) {
            throw new BudgetSpent();
        }
    }
}
