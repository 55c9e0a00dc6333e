package dev.autocomplete.server.http;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;

/**
 * One JSON line per request on the logger {@code dev.autocomplete.access}: time, request id, session id,
 * method, path, tenant, product, status, error code, duration, engine time and fallback reason. Never a
 * credential or {@code additional_context}; {@code raw_query} and the texts of completed params only for a
 * tenant with {@code log_queries: true}.
 *
 * <p>Lines are formatted and written by one background thread, so a request never waits for the console
 * (one synchronous console write per request cost more than the rest of a cached answer). The queue is
 * bounded: when it is full the request's own thread writes its line, so no line is ever dropped, and
 * {@link #close} writes every line still queued.
 *
 * <p>Unless the operator gave the logger handlers of its own (java.util.logging configuration), lines go
 * to standard error as bare JSON lines through a {@link LineHandler} that flushes once per drained batch
 * rather than once per line as the console handler does: that flush cost about half the throughput of
 * cached answers (docs/benchmarks.md).
 */
final class AccessLog implements AutoCloseable {

    static final String LOGGER = "dev.autocomplete.access";

    /** Lines waiting for the writer thread; beyond this a request writes its own line. */
    static final int QUEUE_CAPACITY = 16_384;

    private final System.Logger logger = System.getLogger(LOGGER);
    private final ObjectMapper json;
    private final BlockingQueue<Timed> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread writer;
    private volatile boolean closed;

    /** An entry with the time it was answered. */
    private record Timed(Instant time, Entry entry) {
    }

    private final java.util.logging.Logger julLogger = java.util.logging.Logger.getLogger(LOGGER);

    AccessLog(ObjectMapper json) {
        this.json = json;
        installLineHandler(julLogger);
        this.writer = Thread.ofPlatform().daemon().name("access-log").start(this::drain);
    }

    /** Bare JSON lines on standard error, written through a buffer that the writer flushes per batch. */
    static final class LineHandler extends java.util.logging.StreamHandler {
        LineHandler() {
            super(System.err, new java.util.logging.Formatter() {
                @Override
                public String format(java.util.logging.LogRecord record) {
                    return record.getMessage() + System.lineSeparator();
                }
            });
        }

        @Override
        public synchronized void close() {
            flush(); // standard error belongs to the process, not to this handler
        }
    }

    /** Once per process, and only when the operator's logging configuration gave the logger no handler. */
    private static void installLineHandler(java.util.logging.Logger logger) {
        synchronized (LineHandler.class) {
            for (java.util.logging.Handler handler : logger.getHandlers()) {
                if (handler instanceof LineHandler) {
                    return;
                }
            }
            if (logger.getHandlers().length == 0 && logger.getUseParentHandlers()) {
                logger.addHandler(new LineHandler());
                logger.setUseParentHandlers(false);
            }
        }
    }

    /** What is known about a request once it was answered. */
    record Entry(String method, String path, String tenant, String product, SuggestRequest body,
            SuggestResponse answer, int status,
            String errorCode, long nanos, long engineNanos, String fallback, boolean logQuery) {
    }

    /** Queues the line of an answered request (or writes it now if the queue is full or closed). */
    void write(Entry entry) {
        if (!logger.isLoggable(System.Logger.Level.INFO)) {
            return;
        }
        Timed timed = new Timed(Instant.now(), entry);
        if (closed || !queue.offer(timed)) {
            log(timed);
            flush();
        }
    }

    /** Writes every queued line, then stops the writer thread. */
    @Override
    public void close() {
        closed = true;
        writer.interrupt();
        try {
            writer.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Timed timed = queue.poll(); timed != null; timed = queue.poll()) {
            log(timed);
        }
        flush();
    }

    private void drain() {
        java.util.List<Timed> batch = new java.util.ArrayList<>();
        while (!closed) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch, 1023);
                for (Timed timed : batch) {
                    log(timed);
                }
                if (queue.isEmpty()) {
                    flush();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                logger.log(System.Logger.Level.WARNING, "Access log line not written: " + e.getClass().getName());
            } finally {
                batch.clear();
            }
        }
    }

    private void flush() {
        for (java.util.logging.Handler handler : julLogger.getHandlers()) {
            handler.flush();
        }
    }

    private void log(Timed timed) {
        Entry entry = timed.entry();
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", timed.time().toString());
        line.put("request_id", entry.body() == null ? null : entry.body().requestId());
        line.put("session_id", entry.answer() != null ? entry.answer().sessionId()
                : entry.body() == null ? null : entry.body().sessionId());
        line.put("method", entry.method());
        line.put("path", entry.path());
        line.put("tenant", entry.tenant());
        line.put("product", entry.product());
        line.put("status", entry.status());
        line.put("error", entry.errorCode());
        line.put("duration_ms", Math.round(entry.nanos() / 10_000.0) / 100.0);
        line.put("engine_ms", Math.round(entry.engineNanos() / 10_000.0) / 100.0);
        line.put("fallback", entry.fallback());
        if (entry.logQuery() && entry.body() != null) {
            line.put("raw_query", entry.body().rawQuery());
            Map<String, String> params = new LinkedHashMap<>();
            entry.body().fills().forEach((token, fill) -> params.put(token, fill.text()));
            line.put("params", params);
        }
        try {
            logger.log(System.Logger.Level.INFO, json.writeValueAsString(line));
        } catch (JsonProcessingException e) {
            logger.log(System.Logger.Level.WARNING, "Access log line not written: " + e.getClass().getName());
        }
    }
}
