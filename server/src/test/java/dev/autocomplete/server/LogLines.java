package dev.autocomplete.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The messages one logger writes while it is open, for tests of what the server logs. */
public final class LogLines implements AutoCloseable {

    private final Logger logger;
    private final boolean parentHandlers;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private LogLines(String loggerName, boolean quiet) {
        this.logger = Logger.getLogger(loggerName);
        this.parentHandlers = logger.getUseParentHandlers();
        if (quiet) {
            logger.setUseParentHandlers(false);
        }
        logger.addHandler(capture);
    }

    /** Starts capturing what the logger of {@code type} (named after the class) writes. */
    public static LogLines of(Class<?> type) {
        return new LogLines(type.getName(), false);
    }

    /** Starts capturing what the logger {@code loggerName} writes (for a class this package cannot see). */
    public static LogLines of(String loggerName) {
        return new LogLines(loggerName, false);
    }

    /** As {@link #of(String)}, and keeps the lines from the console until closed (a test that writes thousands). */
    public static LogLines quiet(String loggerName) {
        return new LogLines(loggerName, true);
    }

    /** The messages so far, in order. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeHandler(capture);
        logger.setUseParentHandlers(parentHandlers);
    }
}
