package dev.autocomplete.server.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * JSON written straight into a growing byte array as UTF-8, for the bodies and lines written on every request (an
 * answer's {@code data}, an access log line): a generator, or a {@code StringBuilder} and its {@code String}'s
 * bytes, cost several copies and a check per character more. Strings are escaped as JSON requires: quotes,
 * backslashes and control characters ({@code \n}, {@code \r}, {@code \t} short, the others as <code>&#92;u00XX</code>); a
 * surrogate without its pair (which UTF-8 cannot encode) as its <code>&#92;uXXXX</code> escape, so the text reads back the
 * same; everything else as UTF-8. Not thread-safe: one per body.
 */
public final class JsonText {

    private byte[] bytes;
    private int length;

    public JsonText(int capacity) {
        this.bytes = new byte[capacity];
    }

    public int length() {
        return length;
    }

    /** What was written: the array itself when the capacity given was exactly filled, else a copy. */
    public byte[] bytes() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }

    /** Copies what was written to {@code out}, without the copy {@link #bytes()} may make. */
    public void writeTo(ByteArrayOutputStream out) {
        out.write(bytes, 0, length);
    }

    private void room(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }

    /** One ASCII character, as is: punctuation of the document. */
    public JsonText append(char ascii) {
        room(1);
        bytes[length++] = (byte) ascii;
        return this;
    }

    /**
     * Text known to be plain ASCII that needs no escape (names, constants, digits), as is: copied in one call, whose
     * deprecation is for chars over {@code 0xff}, which such text does not have.
     */
    @SuppressWarnings("deprecation")
    public JsonText ascii(String text) {
        int n = text.length();
        room(n);
        text.getBytes(0, n, bytes, length);
        length += n;
        return this;
    }

    /** JSON written before (a cached answer's {@code data}), as is. */
    public JsonText raw(byte[] json) {
        room(json.length);
        System.arraycopy(json, 0, bytes, length, json.length);
        length += json.length;
        return this;
    }

    /** A whole number, its digits written here rather than by {@code Long.toString} (a string per number). */
    public JsonText number(long value) {
        if (value < 0) {
            return ascii(Long.toString(value));
        }
        int width = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            width++;
        }
        return padded(value, width);
    }

    /** The last {@code width} decimal digits of a number that is not negative, with leading zeros. */
    public JsonText padded(long value, int width) {
        room(width);
        long rest = value;
        for (int at = length + width - 1; at >= length; at--) {
            bytes[at] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        length += width;
        return this;
    }

    public JsonText bool(boolean value) {
        return ascii(value ? "true" : "false");
    }

    /**
     * A JSON string, or {@code null}. The chars are taken as Latin-1 bytes first, in one copy, and then checked and
     * written from that array: reading each char of the string cost half again as much (the envelope's ids, the access
     * log's fields and an answer's texts are written on every request). A char that is no plain ASCII, or that Latin-1
     * could not hold (it became a {@code ?}), is written from the string itself ({@link #escaped}).
     */
    public JsonText string(String value) {
        if (value == null) {
            return ascii("null");
        }
        int n = value.length();
        byte[] latin1 = value.getBytes(StandardCharsets.ISO_8859_1);
        if (latin1.length != n) {
            return charByChar(value); // a surrogate pair became one '?': the indexes no longer match
        }
        room(n + 2); // the quotes and every char as one byte: the plain run below checks no room
        byte[] out = bytes;
        int at = length;
        out[at++] = '"';
        for (int i = 0; i < n; i++) {
            byte b = latin1[i];
            if (b >= 0x20 && b != '"' && b != '\\' && b != 0x7f && b != '?') {
                out[at++] = b;
            } else {
                length = at;
                i = escaped(value, i);
                room(n - i + 1); // what is left, and the closing quote
                out = bytes;
                at = length;
            }
        }
        out[at++] = '"';
        length = at;
        return this;
    }

    /** {@link #string}, reading char by char. */
    private JsonText charByChar(String value) {
        int n = value.length();
        append('"');
        for (int i = 0; i < n; i++) {
            i = escaped(value, i);
        }
        return append('"');
    }

    /** {@code ,"name":} (no comma right after an opening brace or bracket). */
    public JsonText name(String name) {
        if (length > 0 && bytes[length - 1] != '{' && bytes[length - 1] != '[') {
            append(',');
        }
        return append('"').ascii(name).ascii("\":");
    }

    /** Opens an object: after a comma when it follows another value in an array. */
    public JsonText object() {
        if (length > 0 && bytes[length - 1] != '[' && bytes[length - 1] != ':') {
            append(',');
        }
        return append('{');
    }

    /** A member whose value is a string (or null). */
    public JsonText field(String name, String value) {
        return name(name).string(value);
    }

    /** Writes the character at {@code i} as is, escaped or encoded; returns the index of the last char it took. */
    private int escaped(String value, int i) {
        char c = value.charAt(i);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            room(1);
            bytes[length++] = (byte) c;
            return i;
        }
        switch (c) {
            case '"' -> ascii("\\\"");
            case '\\' -> ascii("\\\\");
            case '\n' -> ascii("\\n");
            case '\r' -> ascii("\\r");
            case '\t' -> ascii("\\t");
            default -> {
                if (c < 0x20 || c == 0x7f) {
                    unicodeEscape(c);
                } else if (Character.isHighSurrogate(c)
                        && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    utf8(Character.toCodePoint(c, value.charAt(i + 1)));
                    return i + 1;
                } else if (Character.isSurrogate(c)) {
                    unicodeEscape(c);
                } else {
                    utf8(c);
                }
            }
        }
        return i;
    }

    private void unicodeEscape(char c) {
        room(6);
        bytes[length++] = '\\';
        bytes[length++] = 'u';
        for (int shift = 12; shift >= 0; shift -= 4) {
            bytes[length++] = (byte) Character.forDigit((c >> shift) & 0xF, 16);
        }
    }

    private void utf8(int codePoint) {
        room(4);
        if (codePoint < 0x800) {
            bytes[length++] = (byte) (0xC0 | codePoint >> 6);
            bytes[length++] = (byte) (0x80 | codePoint & 0x3F);
        } else if (codePoint < 0x10000) {
            bytes[length++] = (byte) (0xE0 | codePoint >> 12);
            bytes[length++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
            bytes[length++] = (byte) (0x80 | codePoint & 0x3F);
        } else {
            bytes[length++] = (byte) (0xF0 | codePoint >> 18);
            bytes[length++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
            bytes[length++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
            bytes[length++] = (byte) (0x80 | codePoint & 0x3F);
        }
    }
}
