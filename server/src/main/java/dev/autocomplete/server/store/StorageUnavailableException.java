package dev.autocomplete.server.store;

/** The store cannot be reached or written now (the API answers {@code 503 STORAGE_UNAVAILABLE}). */
public final class StorageUnavailableException extends RuntimeException {

    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
