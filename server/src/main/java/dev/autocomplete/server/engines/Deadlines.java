package dev.autocomplete.server.engines;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The budgets of the runs {@link EngineRunner} waits for, kept by one watchdog thread instead of a timed wait per run
 * (which scheduled and cancelled a timer task each time): a run past its deadline has its future completed with
 * {@link Overdue}. The watchdog looks every {@link #TICK_NANOS} while runs are in flight and sleeps while none is, so
 * a run is given up on at most a tick late. Thread-safe.
 */
final class Deadlines {

    /** How late past its deadline a run may be given up on: budgets are hundreds of milliseconds. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** The completion of a run past its deadline. */
    static final class Overdue extends Exception {
        Overdue() {
            super("over budget", null, false, false);
        }
    }

    /** One run being waited for. */
    record Run(CompletableFuture<?> future, long deadlineNanos) {}

    private static final Overdue OVERDUE = new Overdue();

    private final Set<Run> running = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    private final Thread watchdog;

    Deadlines() {
        watchdog = Thread.ofPlatform().daemon().name("engine-deadlines").start(this::watch);
    }

    /** Watches {@code future} until {@link #forget}: completed with {@link Overdue} once past {@code deadlineNanos}. */
    Run watch(CompletableFuture<?> future, long deadlineNanos) {
        Run run = new Run(future, deadlineNanos);
        running.add(run);
        if (count.getAndIncrement() == 0) {
            LockSupport.unpark(watchdog);
        }
        return run;
    }

    void forget(Run run) {
        running.remove(run);
        count.decrementAndGet();
    }

    private void watch() {
        while (true) {
            if (count.get() == 0) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, TICK_NANOS);
            }
            long now = System.nanoTime();
            for (Run run : running) {
                if (now - run.deadlineNanos() >= 0) {
                    run.future().completeExceptionally(OVERDUE);
                }
            }
        }
    }
}
