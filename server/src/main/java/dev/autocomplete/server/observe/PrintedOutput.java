package dev.autocomplete.server.observe;

import dev.autocomplete.server.engines.EngineCode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * What engines (or any library) print with {@code System.out} and {@code System.err}, kept apart from the
 * access log: {@link #install()} replaces both with streams that turn each printed line into one line on the
 * process's standard error, {@code <time> PRINTED System.out by <whose>: <text>} (whose: the engine, tenant, product
 * and JAR build of the printing code, when {@link EngineCode#running} can tell), with control characters escaped, each
 * written whole in one call to the standard error stream, which serializes it with the access log's batches
 * (also one call each). So printed text never lands inside an access log line, and never starts a line with
 * <code>{</code> as an access log line does. The server itself writes to the streams {@code main} was given, never to {@code System.out}.
 */
public final class PrintedOutput extends OutputStream {

    /** A line longer than this is written in pieces of this size. */
    static final int MAX_LINE = 16 * 1024;

    private final PrintStream target;
    private final String source;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private boolean carriageReturn;

    private PrintedOutput(PrintStream target, String source) {
        this.target = target;
        this.source = source;
    }

    /**
     * Sends {@code System.out} and {@code System.err} to the current standard error as prefixed lines. Call
     * once, from {@code main}, after taking the streams the commands print their own output to.
     */
    public static void install() {
        // The console handler takes System.err when created: create it now, so the server's own log lines
        // keep going to standard error as they are.
        java.util.logging.Logger.getLogger("").getHandlers();
        PrintStream err = standardError();
        System.setOut(new Printed(new PrintedOutput(err, "System.out"), err));
        System.setErr(new Printed(new PrintedOutput(err, "System.err"), err));
    }

    /** The process's standard error as it was before {@link #install()}: where the access log writes. */
    public static PrintStream standardError() {
        return System.err instanceof Printed printed ? printed.target : System.err;
    }

    /** The replacement stream; knows the standard error it writes to. */
    private static final class Printed extends PrintStream {
        private final PrintStream target;

        Printed(PrintedOutput lines, PrintStream target) {
            super(lines, true, target.charset());
            this.target = target;
        }
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            carriageReturn = false;
            emit();
            return;
        }
        if (carriageReturn) {
            escape('\r');
        }
        carriageReturn = b == '\r';
        if (!carriageReturn) {
            if ((b & 0xff) < 0x20 && b != '\t' || (b & 0xff) == 0x7f) {
                escape(b & 0xff);
            } else {
                line.write(b);
            }
        }
        if (line.size() >= MAX_LINE) {
            emit();
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    /** Writes what is left of an unfinished line. */
    @Override
    public synchronized void close() {
        if (line.size() > 0 || carriageReturn) {
            emit();
        }
    }

    private void escape(int b) {
        line.writeBytes(String.format("\\x%02x", b).getBytes(StandardCharsets.US_ASCII));
    }

    /** One whole line in one write: the stream serializes whole writes with the access log's batches. */
    private void emit() {
        if (carriageReturn) {
            escape('\r');
            carriageReturn = false;
        }
        // Whose line it is, found now from the printing thread (the one that ended the line): nothing is kept per call.
        String whose = EngineCode.running();
        byte[] head = (Instant.now() + " PRINTED " + source + (whose == null ? "" : " by " + whose) + ": ")
                .getBytes(target.charset());
        byte[] newline = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);
        byte[] whole = new byte[head.length + line.size() + newline.length];
        System.arraycopy(head, 0, whole, 0, head.length);
        System.arraycopy(line.toByteArray(), 0, whole, head.length, line.size());
        System.arraycopy(newline, 0, whole, head.length + line.size(), newline.length);
        line.reset();
        target.write(whole, 0, whole.length);
        target.flush();
    }
}
