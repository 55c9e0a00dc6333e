package dev.autocomplete.index;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * A display text stored as the few edits that turn its folded form (which the index keeps anyway) back into it:
 * {@code Paris Airport, FR} over {@code paris airport fr} is "one upper-case letter, five copied, one upper, six
 * copied, a comma, one copied, two upper": 8 bytes instead of 17. Each op is one byte, its kind in the top two
 * bits and a count of 1 to 63 below: copy bytes of the folded text, copy them in ASCII upper case, skip them, or
 * take the bytes that follow the op (an accent, punctuation). A patch that would not be shorter than the text is
 * stored as the text, after a 0 byte. Both sides are UTF-8; decoding gives the text's exact bytes.
 */
final class TextPatches {

    private static final int COPY = 0;
    private static final int UPPER = 1 << 6;
    private static final int SKIP = 2 << 6;
    private static final int LITERAL = 3 << 6;
    private static final int MOST = 63;

    private TextPatches() {}

    /** The patch that turns {@code folded} back into {@code text}. */
    static byte[] encode(byte[] text, byte[] folded) {
        Ops ops = new Ops();
        int j = 0;
        for (int i = 0; i < text.length; i++) {
            int d = text[i];
            if (j < folded.length && d == folded[j]) {
                ops.run(COPY);
                j++;
            } else if (j < folded.length && folded[j] >= 'a' && folded[j] <= 'z' && d == folded[j] - 32) {
                ops.run(UPPER);
                j++;
            } else if (j + 1 < folded.length && (d == folded[j + 1] || upper(folded[j + 1]) == d)) {
                // The folded byte has no counterpart here (an accent's base letter, a space for a hyphen).
                ops.run(SKIP);
                j++;
                i--;
            } else {
                ops.literal((byte) d);
            }
        }
        byte[] patch = ops.toArray();
        if (patch.length >= text.length + 1 || !Arrays.equals(decode(patch, 0, patch.length, folded, 0), text)) {
            byte[] raw = new byte[text.length + 1];
            System.arraycopy(text, 0, raw, 1, text.length);
            return raw;
        }
        return patch;
    }

    /** The text that the patch {@code patch[from, to)} makes of the folded bytes from {@code folded[at]} on. */
    static byte[] decode(byte[] patch, int from, int to, byte[] folded, int at) {
        if (from < to && patch[from] == 0) {
            return Arrays.copyOfRange(patch, from + 1, to);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(2 * (to - from));
        int j = at;
        for (int p = from; p < to; p++) {
            int op = patch[p] & 0xff;
            int count = op & MOST;
            switch (op & LITERAL) {
                case COPY -> out.write(folded, j, count);
                case UPPER -> {
                    for (int c = 0; c < count; c++) {
                        out.write(upper(folded[j + c]));
                    }
                }
                case SKIP -> {}
                default -> {
                    out.write(patch, p + 1, count);
                    p += count;
                    continue;
                }
            }
            j += count;
        }
        return out.toByteArray();
    }

    private static int upper(byte b) {
        return b >= 'a' && b <= 'z' ? b - 32 : b;
    }

    /** The ops being written: runs of one kind are merged, literal bytes gathered. */
    private static final class Ops {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream literal = new ByteArrayOutputStream();
        private int kind = -1;
        private int count;

        void run(int next) {
            flushLiteral();
            if (kind == next && count < MOST) {
                count++;
                return;
            }
            flushRun();
            kind = next;
            count = 1;
        }

        void literal(byte b) {
            flushRun();
            if (literal.size() == MOST) {
                flushLiteral();
            }
            literal.write(b);
        }

        private void flushRun() {
            if (kind >= 0) {
                out.write(kind | count);
                kind = -1;
            }
        }

        private void flushLiteral() {
            if (literal.size() > 0) {
                out.write(LITERAL | literal.size());
                out.writeBytes(literal.toByteArray());
                literal.reset();
            }
        }

        byte[] toArray() {
            flushRun();
            flushLiteral();
            return out.toByteArray();
        }
    }
}
