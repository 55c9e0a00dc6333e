package dev.autocomplete.server.store;

import java.util.function.Supplier;

/**
 * A store reached on first use rather than at start: a shared PostgreSQL may be away while the server starts, and
 * what writes in the background (learning, analytics) tries again at its next run. {@link #get()} throws what
 * {@code connect} throws ({@link StorageUnavailableException}) until one call succeeds. Thread-safe.
 */
public final class LazyStore<S extends AutoCloseable> implements AutoCloseable {

    private final Supplier<S> connect;
    private volatile S store;

    public LazyStore(Supplier<S> connect) {
        this.connect = connect;
    }

    /** The store, reached now if it has not been yet. */
    public S get() {
        S reached = store;
        if (reached == null) {
            synchronized (this) {
                if (store == null) {
                    store = connect.get();
                }
                reached = store;
            }
        }
        return reached;
    }

    /** Closes the store if it was ever reached. */
    @Override
    public void close() {
        S reached = store;
        if (reached != null) {
            try {
                reached.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the store failed", e);
            }
        }
    }
}
