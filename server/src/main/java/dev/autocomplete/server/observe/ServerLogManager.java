package dev.autocomplete.server.observe;

import java.util.logging.LogManager;

/**
 * The process's {@link LogManager} for {@code serve} ({@code java.util.logging.manager}, set first thing in
 * {@code main}): the JDK's own closes every handler from a shutdown hook of its own, which runs beside the server's,
 * so what the server logs while it stops (that it stops, requests still running past the grace, picks not written)
 * was lost. This one leaves the handlers open while the JVM shuts down until {@link #closeHandlers} is called at the
 * end of the server's own hook.
 */
public final class ServerLogManager extends LogManager {

    /** Closes the handlers, as the JDK's manager would have at exit; a no-op under any other manager. */
    public static void closeHandlers() {
        if (LogManager.getLogManager() instanceof ServerLogManager manager) {
            manager.closing = true;
            manager.reset();
        }
    }

    private volatile boolean closing;

    @Override
    public void reset() {
        if (closing || !shuttingDown()) {
            super.reset();
        }
    }

    /** Whether the JVM is running its shutdown hooks (it then refuses new ones). */
    private static boolean shuttingDown() {
        try {
            Thread probe = new Thread(() -> {});
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
