package dev.autocomplete.server.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Checks that a request body is UTF-8 before Jackson reads it (protocol note 15). Jackson decodes what it is
 * given without checking: overlong forms ({@code C0 BC} read as {@code <}, {@code E0 80 AF} as {@code /}) and
 * encoded surrogates ({@code ED A0 80} as {@code \uD800}) pass, so text that no UTF-8 encoder writes would reach
 * the protocol's checks and the engines.
 */
public final class Utf8 {

    /** Reads eight bytes at once: request bodies are mostly ASCII, checked a word at a time. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long HIGH_BITS = 0x8080808080808080L;

    private Utf8() {}

    /**
     * Whether the bytes are well-formed UTF-8 as Unicode defines it (table 3-7): no overlong form, no surrogate,
     * nothing above U+10FFFF, no truncated sequence, no stray continuation byte; one pass.
     */
    static boolean isWellFormed(byte[] bytes) {
        int i = 0;
        int length = bytes.length;
        while (i < length) {
            if (i + Long.BYTES <= length && ((long) LONGS.get(bytes, i) & HIGH_BITS) == 0) {
                i += Long.BYTES;
                continue;
            }
            int lead = bytes[i] & 0xff;
            if (lead < 0x80) {
                i++;
                continue;
            }
            // The second byte's range depends on the lead byte: that is where overlong forms, surrogates and
            // code points past U+10FFFF are excluded. Later bytes are plain continuation bytes.
            int size;
            int low = 0x80;
            int high = 0xbf;
            if (lead >= 0xc2 && lead <= 0xdf) {
                size = 2;
            } else if (lead >= 0xe0 && lead <= 0xef) {
                size = 3;
                if (lead == 0xe0) {
                    low = 0xa0;
                } else if (lead == 0xed) {
                    high = 0x9f;
                }
            } else if (lead >= 0xf0 && lead <= 0xf4) {
                size = 4;
                if (lead == 0xf0) {
                    low = 0x90;
                } else if (lead == 0xf4) {
                    high = 0x8f;
                }
            } else {
                return false; // a continuation byte without a lead, C0, C1 or F5 to FF
            }
            if (i + size > length) {
                return false;
            }
            int second = bytes[i + 1] & 0xff;
            if (second < low || second > high) {
                return false;
            }
            for (int k = 2; k < size; k++) {
                if ((bytes[i + k] & 0xc0) != 0x80) {
                    return false;
                }
            }
            i += size;
        }
        return true;
    }

    /**
     * Whether the body starts with a NUL byte among its first four. Jackson reads such a body as UTF-16 or UTF-32
     * (it guesses the encoding from where the zeros are); as UTF-8 a NUL byte is never JSON text.
     */
    static boolean startsLikeUtf16Or32(byte[] bytes) {
        for (int i = 0; i < Math.min(4, bytes.length); i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** The protocol's answer to a body that is not UTF-8 JSON text. */
    public static void requireUtf8Json(byte[] body) {
        if (startsLikeUtf16Or32(body) || !isWellFormed(body)) {
            throw ApiException.badRequest("INVALID_JSON", "The body is not valid UTF-8.");
        }
    }
}
