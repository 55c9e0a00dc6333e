package dev.autocomplete.server.store;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs work that keeps a thread busy without blocking in Java (JDBC's native calls into SQLite, parsing a large
 * body, building a catalog's index) on a platform thread when it is called from a virtual one, and waits for it
 * there. A virtual thread in such work holds its carrier: with as many carriers as cores, two large catalog writes
 * held both, and every request of the server waited 10 s for one. A platform thread is scheduled by the operating
 * system instead, beside the carriers. Work called from a platform thread runs where it is.
 */
public final class PlatformThreads {

    private static final ExecutorService WORKERS = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("store-worker-", 0).factory());

    private PlatformThreads() {}

    /**
     * {@code work}'s result, computed on a platform thread; what it throws is rethrown as it was (a checked
     * exception wrapped in an {@link IllegalStateException}).
     */
    public static <T> T call(Callable<T> work) {
        if (!Thread.currentThread().isVirtual()) {
            try {
                return work.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        Future<T> result = WORKERS.submit(work);
        try {
            return result.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            // The work goes on (a transaction is not left half done); the caller stops waiting for it.
            Thread.currentThread().interrupt();
            throw new StorageUnavailableException("interrupted while the store worked", e);
        }
    }
}
