package dev.autocomplete.server.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The fast path of {@link SuggestRequestReader#keyed} for the shape clients send on every keystroke: an object of
 * {@code data} and {@code meta} alone, {@code data} without {@code identified_params}, {@code meta} of strings and
 * nulls, names and {@code meta}'s strings without escapes. One pass over the bytes finds {@code data}'s object and
 * reads {@code meta}'s strings; for any other shape it gives up (null) and the reader's streaming parser takes the
 * body. Creating that parser and walking its tokens was most of a cache hit's reading: about two thirds of
 * {@code keyed}'s CPU.
 *
 * <p>It checks the JSON of everything but {@code data}, strictly (what it does not know it gives up on). Of
 * {@code data} it finds only the end, skipping strings and counting brackets: a body whose {@code data} bytes equal
 * a kept answer's were checked whole when that answer was computed, and any other body is read whole, and checked,
 * as a miss. The bytes are well-formed UTF-8 before it runs ({@link Utf8#requireUtf8Json}).
 */
final class KeyedScan {

    /** {@code data}'s object, {@code [dataStart, dataEnd)} of the body, and {@code meta}'s values by wanted name. */
    record Found(int dataStart, int dataEnd, Object[] meta) {}

    private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] META = "meta".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] IDENTIFIED = "\"identified_params\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private final byte[] body;
    private int at;
    /** The last member's name: {@code body[nameStart, nameEnd)}. */
    private int nameStart;

    private int nameEnd;

    private KeyedScan(byte[] body) {
        this.body = body;
    }

    /**
     * The parts of a body of the usual shape, {@code meta}'s values by {@code names} (a String or null each; of a
     * repeated name the last, as the reader keeps); null for any other body.
     */
    static Found scan(byte[] body, byte[][] names) {
        return new KeyedScan(body).top(names);
    }

    /** Names as {@link #scan} takes them: their ASCII bytes. */
    static byte[][] names(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
    }

    private Found top(byte[][] names) {
        int dataStart = -1;
        int dataEnd = -1;
        Object[] meta = null;
        if (!take('{')) {
            return null;
        }
        do {
            if (!name()) {
                return null;
            }
            if (same(nameStart, nameEnd, DATA) && dataStart < 0) {
                dataStart = at;
                dataEnd = object();
                if (dataEnd < 0) {
                    return null;
                }
            } else if (same(nameStart, nameEnd, META) && meta == null) {
                meta = meta(names);
                if (meta == null) {
                    return null;
                }
            } else {
                return null; // another member, or data or meta twice: the parser's to judge
            }
        } while (take(','));
        if (!take('}') || dataStart < 0 || meta == null) {
            return null;
        }
        space();
        return at == body.length ? new Found(dataStart, dataEnd, meta) : null;
    }

    /** {@code meta}'s object: members whose values are strings without escapes or null; null for anything else. */
    private Object[] meta(byte[][] names) {
        Object[] values = new Object[names.length];
        if (!take('{')) {
            return null;
        }
        if (take('}')) {
            return values;
        }
        do {
            if (!name()) {
                return null;
            }
            Object value;
            if (at < body.length && body[at] == '"') {
                int start = at + 1;
                int end = plainString();
                if (end < 0) {
                    return null;
                }
                value = new String(body, start, end - start, StandardCharsets.UTF_8);
            } else if (same(at, at + NULL.length, NULL)) {
                at += NULL.length;
                value = null;
            } else {
                return null; // a number, an object...: the parser says what is wrong, if anything
            }
            int index = indexOf(names, nameStart, nameEnd);
            if (index >= 0) {
                values[index] = value;
            }
        } while (take(','));
        return take('}') ? values : null;
    }

    /** A member's name, its colon and the whitespace after it; false for anything else. */
    private boolean name() {
        space();
        nameStart = at + 1;
        nameEnd = plainString();
        if (nameEnd < 0 || !take(':')) {
            return false;
        }
        space();
        return true;
    }

    /**
     * A string without escapes or control characters at {@code at}, its closing quote taken: returns the index of
     * that quote, or -1.
     */
    private int plainString() {
        if (at >= body.length || body[at] != '"') {
            return -1;
        }
        for (int i = at + 1; i < body.length; i++) {
            int b = body[i];
            if (b == '"') {
                at = i + 1;
                return i;
            }
            if (b == '\\' || (b >= 0 && b < 0x20)) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * The end (exclusive) of the object at {@code at}, found by counting brackets outside strings; -1 when the
     * body ends first, or when it holds the string {@code "identified_params"} anywhere (the parser cuts that member
     * out). Its contents are not checked (see the class).
     */
    private int object() {
        byte[] body = this.body;
        if (at >= body.length || body[at] != '{') {
            return -1;
        }
        int depth = 0;
        for (int i = at; i < body.length; i++) {
            byte b = body[i];
            if (b == '"') {
                if (i + 1 < body.length && body[i + 1] == 'i' && same(i, i + IDENTIFIED.length, IDENTIFIED)) {
                    return -1;
                }
                for (i++; i < body.length && body[i] != '"'; i++) {
                    if (body[i] == '\\') {
                        i++;
                    }
                }
            } else if (b == '{' || b == '[') {
                depth++;
            } else if ((b == '}' || b == ']') && --depth == 0) {
                at = i + 1;
                return b == '}' ? at : -1;
            }
        }
        return -1;
    }

    /** Takes {@code c} after whitespace; false (nothing taken but the whitespace) when another byte is there. */
    private boolean take(char c) {
        space();
        if (at < body.length && body[at] == c) {
            at++;
            return true;
        }
        return false;
    }

    private void space() {
        while (at < body.length && (body[at] == ' ' || body[at] == '\n' || body[at] == '\r' || body[at] == '\t')) {
            at++;
        }
    }

    private boolean same(int start, int end, byte[] text) {
        return end - start == text.length
                && end <= body.length
                && Arrays.equals(body, start, end, text, 0, text.length);
    }

    /** The index of the name in {@code body[start, end)} among {@code names}, or -1. */
    private int indexOf(byte[][] names, int start, int end) {
        for (int n = 0; n < names.length; n++) {
            if (same(start, end, names[n])) {
                return n;
            }
        }
        return -1;
    }
}
