package dev.autocomplete.server.http;

import dev.autocomplete.server.observe.PrintedOutput;
import dev.autocomplete.server.protocol.JsonText;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * One JSON line per request on the logger {@code dev.autocomplete.access}: time, request id, session id,
 * method, path, tenant, product, status, error code, duration, engine time and fallback reason. Never a
 * credential or {@code additional_context}; {@code raw_query} and the texts of completed params only for a
 * tenant with {@code log_queries: true}.
 *
 * <p>Lines are written by one background thread, so a request never waits for the console (one synchronous
 * console write per request cost more than the rest of a cached answer). A request formats its line (while what it
 * names is still in the processor's caches: formatted later by the writer, the same line cost several times as much,
 * 6 % of a cached answer's CPU) and appends its bytes to the {@link LineHandler}'s buffer; the writer wakes every
 * {@link #DRAIN_INTERVAL_MS} ms and hands what has gathered to standard error, so no request pays for waking it (a
 * blocking queue's signal per line cost about a tenth of a cached answer's CPU, and a lock-free queue of lines
 * drained by the writer about 2 % under the profiler). The buffer is bounded: when it holds {@link #BUFFER_BYTES},
 * the request's own thread writes it out, so no line is ever dropped, and {@link #close} writes every line still
 * buffered. With handlers of the operator's own, lines wait in a lock-free queue of at most {@link #QUEUE_CAPACITY}
 * instead, with the same rule, and reach the handlers as log records.
 *
 * <p>Unless the operator gave the logger handlers of its own (java.util.logging configuration), lines go
 * to standard error as bare JSON lines through a {@link LineHandler} that flushes once per drained batch
 * rather than once per line as the console handler does: that flush cost about half the throughput of
 * cached answers (docs/benchmarks.md). That is the process's standard error even after
 * {@link PrintedOutput#install()} replaced {@code System.err}: what engines print reaches it only as prefixed
 * lines, written whole, so it can neither split nor forge an access log line.
 */
public final class AccessLog implements AutoCloseable {

    static final String LOGGER = "dev.autocomplete.access";

    /** Lines waiting for the writer thread in the queue (handlers of the operator's); beyond this a request writes its own line. */
    static final int QUEUE_CAPACITY = 16_384;

    /** Bytes of lines waiting for the writer in the {@link LineHandler}'s buffer; beyond this a request writes them. */
    static final int BUFFER_BYTES = 4 * 1024 * 1024;

    /** How long lines may wait for the writer: short for someone tailing the log, long next to a request. */
    static final long DRAIN_INTERVAL_MS = 20;

    private final System.Logger logger = System.getLogger(LOGGER);
    private final Logger julLogger = Logger.getLogger(LOGGER);
    private final Queue<byte[]> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Thread writer;
    private volatile boolean closed;
    /**
     * The logger's own {@link LineHandler} while it is its only way out ({@link #directHandler()}), else null: looked
     * up again by the writer on every wake-up, so a request reads one field rather than the logger's handlers.
     */
    private volatile LineHandler direct;
    /** The handler {@link #direct} named before it was replaced, for one more {@link #route()}; the writer's. */
    private LineHandler retired;

    public AccessLog() {
        installLineHandler(julLogger);
        this.direct = directHandler();
        this.writer = Thread.ofPlatform().daemon().name("access-log").start(this::drain);
    }

    /**
     * Bare JSON lines on standard error, gathered in a buffer that the writer hands to standard error once per
     * drained batch, rather than once per line as the console handler does. Lines are appended under the buffer's
     * lock only: a {@link #flush()} swaps in an empty buffer and writes the full one outside that lock, so a request
     * appending its line never waits for standard error.
     */
    static final class LineHandler extends Handler {
        private final PrintStream out;
        /** Lines not yet handed out; guarded by this handler's lock. */
        private ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
        /** The buffer last written out, emptied, for the next swap; guarded by {@link #output}. */
        private ByteArrayOutputStream spare = new ByteArrayOutputStream(64 * 1024);
        /** Held while lines are written out, so batches reach standard error in the order they were gathered. */
        private final Object output = new Object();

        /** Writes to the process's standard error, never an engine's {@code System.err}. */
        LineHandler() {
            this(PrintedOutput.standardError());
        }

        LineHandler(PrintStream out) {
            this.out = out;
        }

        @Override
        public void publish(LogRecord record) {
            if (isLoggable(record)) {
                append(record.getMessage().getBytes(StandardCharsets.UTF_8));
            }
        }

        /**
         * Adds one line, its UTF-8 bytes, without the {@code LogRecord} a logger call makes.
         *
         * @return the bytes now waiting to be written out
         */
        synchronized int append(byte[] line) {
            buffer.writeBytes(line);
            buffer.writeBytes(NEWLINE);
            return buffer.size();
        }

        /**
         * Adds one request's line as {@link #format} wrote it, copied once from the text it was written into (its line
         * end added there first: one write under the lock).
         *
         * @return the bytes now waiting to be written out
         */
        int append(JsonText line) {
            line.ascii(LINE_END);
            synchronized (this) {
                line.writeTo(buffer);
                return buffer.size();
            }
        }

        @Override
        public void flush() {
            emptied(full -> {
                try {
                    full.writeTo(out);
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // a PrintStream does not throw; kept for the signature
                } finally {
                    out.flush();
                }
                return null;
            });
        }

        /** What was gathered and not yet written out, taken away without writing it. */
        byte[] take() {
            byte[] lines = emptied(ByteArrayOutputStream::toByteArray);
            return lines == null ? new byte[0] : lines;
        }

        /**
         * Swaps in the empty buffer and hands the full one to {@code use} under {@link #output}, outside the buffer's
         * lock; null (and {@code use} not called) when nothing was gathered.
         */
        private <T> T emptied(Function<ByteArrayOutputStream, T> use) {
            synchronized (output) {
                ByteArrayOutputStream full;
                synchronized (this) {
                    if (buffer.size() == 0) {
                        return null;
                    }
                    full = buffer;
                    buffer = spare;
                }
                try {
                    return use.apply(full);
                } finally {
                    full.reset();
                    spare = full;
                }
            }
        }

        @Override
        public void close() {
            flush(); // standard error belongs to the process, not to this handler
        }

        private static final String LINE_END = System.lineSeparator();
        private static final byte[] NEWLINE = LINE_END.getBytes(StandardCharsets.US_ASCII);
    }

    /** Once per process, and only when the operator's logging configuration gave the logger no handler. */
    private static void installLineHandler(Logger logger) {
        synchronized (LineHandler.class) {
            for (Handler handler : logger.getHandlers()) {
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
    record Entry(
            String method,
            String path,
            String tenant,
            String product,
            SuggestRequest body,
            SuggestResponse answer,
            int status,
            String errorCode,
            long nanos,
            long engineNanos,
            String fallback,
            boolean logQuery,
            String sessionId) {}

    /** Buffers or queues the line of an answered request (or writes it now if full or closed). */
    void write(Entry entry) {
        if (!julLogger.isLoggable(Level.INFO)) {
            return;
        }
        JsonText line = formatted(entry, Instant.now());
        if (!closed) {
            LineHandler lines = direct;
            if (lines != null) {
                if (lines.append(line) > BUFFER_BYTES) {
                    lines.flush(); // standard error is not keeping up: this request writes what gathered
                }
                return;
            }
            if (queued.incrementAndGet() <= QUEUE_CAPACITY) {
                queue.add(line.bytes());
                return;
            }
            queued.decrementAndGet();
        }
        writeNow(line.bytes());
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
        synchronized (this) {
            route();
            writeQueued();
            flush();
        }
    }

    private synchronized void writeNow(byte[] line) {
        log(line, directHandler());
        flush();
    }

    private void drain() {
        while (!closed) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(DRAIN_INTERVAL_MS));
            if (Thread.interrupted()) {
                return;
            }
            synchronized (this) {
                try {
                    route();
                    if (writeQueued() > 0) {
                        flush();
                    }
                } catch (RuntimeException e) {
                    logger.log(
                            System.Logger.Level.WARNING,
                            "Access log line not written: " + e.getClass().getName());
                }
            }
        }
    }

    /**
     * Writes out what requests appended to the {@link LineHandler}, and looks again whether it is the logger's only
     * way out. When it no longer is (handlers of the operator's, or a test's, were added since), what it gathered goes
     * through the logger instead, as queued lines do, here and once more at the next call (a request may have read
     * the handler just before it was replaced). The caller holds this object's lock.
     */
    private void route() {
        LineHandler was = direct;
        LineHandler now = directHandler();
        direct = now;
        if (retired != null) {
            handOn(retired.take(), now);
            retired = null;
        }
        if (was == now) {
            if (was != null) {
                was.flush();
            }
        } else if (was != null) {
            handOn(was.take(), now);
            retired = was;
        }
    }

    /** Lines a replaced {@link LineHandler} gathered, each to the logger's handlers now. */
    private void handOn(byte[] lines, LineHandler now) {
        int start = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i] == '\n') {
                int end = i > start && lines[i - 1] == '\r' ? i - 1 : i;
                log(Arrays.copyOfRange(lines, start, end), now);
                start = i + 1;
            }
        }
        if (lines.length > 0) {
            flush();
        }
    }

    /** Writes the lines queued so far; the caller holds this object's lock. */
    private int writeQueued() {
        int written = 0;
        LineHandler direct = directHandler();
        for (byte[] line = queue.poll(); line != null; line = queue.poll()) {
            queued.decrementAndGet();
            log(line, direct);
            written++;
        }
        return written;
    }

    private void flush() {
        for (Handler handler : julLogger.getHandlers()) {
            handler.flush();
        }
    }

    /**
     * The default handler when it is the logger's only way out (no filter, no parent handlers, level at
     * most INFO): lines are then appended to it directly, without a {@code LogRecord}. Null otherwise.
     */
    private LineHandler directHandler() {
        Handler[] handlers = julLogger.getHandlers();
        return handlers.length == 1
                        && handlers[0] instanceof LineHandler lines
                        && !julLogger.getUseParentHandlers()
                        && julLogger.getFilter() == null
                        && lines.getLevel().intValue() <= Level.INFO.intValue()
                ? lines
                : null;
    }

    private void log(byte[] line, LineHandler direct) {
        if (direct != null) {
            direct.append(line);
        } else {
            julLogger.log(Level.INFO, new String(line, StandardCharsets.UTF_8));
        }
    }

    /**
     * The line of an entry answered at {@code time}, as UTF-8 bytes: written straight into a byte array (a
     * {@code StringBuilder}, its {@code String} and that string's bytes made by the writer were three copies).
     */
    static byte[] format(Entry entry, Instant time) {
        return formatted(entry, time).bytes();
    }

    /** {@link #format}, the line left in the text it was written into. */
    private static JsonText formatted(Entry entry, Instant time) {
        JsonText line = new JsonText(384);
        line.append('{');
        time(line, time);
        line.field("request_id", entry.body() == null ? null : entry.body().requestId());
        line.field(
                "session_id",
                entry.answer() != null
                        ? entry.answer().sessionId()
                        : entry.body() == null
                                ? entry.sessionId()
                                : entry.body().sessionId());
        line.append(',').raw(where(entry.method(), entry.path(), entry.tenant(), entry.product()));
        line.name("status").number(entry.status());
        line.field("error", entry.errorCode());
        hundredths(line.name("duration_ms"), entry.nanos());
        hundredths(line.name("engine_ms"), entry.engineNanos());
        line.field("fallback", entry.fallback());
        if (entry.logQuery() && entry.body() != null) {
            line.field("raw_query", entry.body().rawQuery());
            line.name("params").append('{');
            int before = line.length();
            for (var fill : entry.body().fills().entrySet()) {
                if (line.length() > before) {
                    line.append(',');
                }
                line.string(fill.getKey()).append(':');
                line.string(fill.getValue().text());
            }
            line.append('}');
        }
        line.append('}');
        return line;
    }

    /** The members {@code "method"}, {@code "path"}, {@code "tenant"} and {@code "product"} of a line, written once. */
    private record Where(String method, String path, String tenant, String product, byte[] json) {}

    /**
     * The last {@link Where} written for each of 64 slots (by the four texts' hashes): nearly every line repeats one of
     * a few, and writing the four members was about a quarter of a line under the profiler. Read and replaced without
     * a lock: a slot holds an immutable record, and one seen stale or missing is written again.
     */
    private static final Where[] WHERE = new Where[64];

    /** The four members, without braces or a leading comma. */
    static byte[] where(String method, String path, String tenant, String product) {
        int hash = ((Objects.hashCode(method) * 31 + Objects.hashCode(path)) * 31 + Objects.hashCode(tenant)) * 31
                + Objects.hashCode(product);
        int slot = (hash ^ hash >>> 16) & (WHERE.length - 1);
        Where known = WHERE[slot];
        if (known != null
                && Objects.equals(known.method(), method)
                && Objects.equals(known.path(), path)
                && Objects.equals(known.tenant(), tenant)
                && Objects.equals(known.product(), product)) {
            return known.json();
        }
        JsonText json = new JsonText(96);
        json.field("method", method);
        json.field("path", path);
        json.field("tenant", tenant);
        json.field("product", product);
        byte[] bytes = json.bytes();
        WHERE[slot] = new Where(method, path, tenant, product, bytes);
        return bytes;
    }

    /** A second and its text up to the seconds, without the Z. */
    private record Second(long epochSecond, String text) {}

    /** The second last formatted: lines mostly share it. */
    private static volatile Second second = new Second(Long.MIN_VALUE, "");

    /** {@code "time"} as {@link Instant#toString()} writes it, formatting the date and time once a second. */
    private static void time(JsonText line, Instant time) {
        Second last = second;
        if (time.getEpochSecond() != last.epochSecond()) {
            String whole = Instant.ofEpochSecond(time.getEpochSecond()).toString();
            last = new Second(time.getEpochSecond(), whole.substring(0, whole.length() - 1));
            second = last;
        }
        line.name("time").append('"').ascii(last.text());
        int nanos = time.getNano();
        if (nanos > 0) {
            int digits = nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
            int value = digits == 3 ? nanos / 1_000_000 : digits == 6 ? nanos / 1_000 : nanos;
            line.append('.').padded(value, digits);
        }
        line.ascii("Z\"");
    }

    /**
     * Milliseconds to two decimals, as {@code Double.toString} writes them ({@code 0.05}, {@code 1.0}, {@code 12.34}),
     * from the digits: {@code Double.toString} per field was a fifth of the line's cost.
     */
    static void hundredths(JsonText line, long nanos) {
        long hundredths = Math.round(nanos / 10_000.0);
        if (hundredths < 0 || hundredths >= 1_000_000_000L) {
            line.ascii(Double.toString(hundredths / 100.0)); // negative, or 10,000 s and over (written with an E)
            return;
        }
        line.number(hundredths / 100).append('.').append((char) ('0' + hundredths / 10 % 10));
        if (hundredths % 10 != 0) {
            line.append((char) ('0' + hundredths % 10));
        }
    }
}
