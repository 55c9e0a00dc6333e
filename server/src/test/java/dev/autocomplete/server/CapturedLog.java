package dev.autocomplete.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The messages a logger of the in-process server writes while this is open, for tests of what it logs; formatted
 * with their parameters ({@code {0}}) as the log shows them.
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            messages.add(new SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private CapturedLog(String name) {
        this.logger = Logger.getLogger(name); // held: an unreferenced logger may be collected with its handler
        logger.addHandler(handler);
    }

    /** Captures what the logger {@code name} (a class name) writes from now on. */
    public static CapturedLog of(String name) {
        return new CapturedLog(name);
    }

    public List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
