package dev.autocomplete.index;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * A display text stored as the few edits that turn its folded form (which the index keeps anyway) back into it:
 * {@code Paris Airport, FR} over {@code paris airport fr} is "one upper-case letter, five copied, one upper, six
 * copied, a comma, one copied, two upper": 8 bytes instead of 17. Each op is one byte, its kind in the top two
 * bits and a count of 1 to 63 below: copy bytes of the folded text, copy them in ASCII upper case, skip them, or
 * take the bytes that follow the op (an accent, punctuation). Copies may read the folded text in title case
 * (upper case at each word's start) when that makes the patch shorter: {@code Paris Airport, FR} is then "13
 * copied, a comma, two copied, one upper": 6 bytes. A patch that would not be shorter than the text is stored as
 * the text, after a 0 byte. Both sides are UTF-8; decoding gives the text's exact bytes.
 */
final class TextPatches {

    private static final int COPY = 0;
    private static final int UPPER = 1 << 6;
    private static final int SKIP = 2 << 6;
    private static final int LITERAL = 3 << 6;
    private static final int MOST = 63;
    /** A first byte that no op starts with (an upper-case run of none): the ops copy the folded text title-cased. */
    private static final int TITLE = UPPER;

    private TextPatches() {}

    /**
     * The patch that turns {@code folded} back into {@code text}: the shorter of the patch over the folded bytes
     * and the patch over them in title case (after a {@code TITLE} byte), or the text itself after a 0 byte.
     */
    static byte[] encode(byte[] text, byte[] folded) {
        byte[] plain = encode(text, folded, false);
        byte[] title = encode(text, folded, true);
        byte[] patch = title.length + 1 < plain.length ? title : plain;
        byte[] chosen = patch == title ? prefixed(TITLE, title) : plain;
        if (chosen.length >= text.length + 1 || !Arrays.equals(decode(chosen, 0, chosen.length, folded, 0), text)) {
            return prefixed(0, text);
        }
        return chosen;
    }

    private static byte[] prefixed(int first, byte[] rest) {
        byte[] bytes = new byte[rest.length + 1];
        bytes[0] = (byte) first;
        System.arraycopy(rest, 0, bytes, 1, rest.length);
        return bytes;
    }

    /** The ops over the folded bytes, in title case when {@code title}. */
    private static byte[] encode(byte[] text, byte[] folded, boolean title) {
        Ops ops = new Ops();
        int j = 0;
        for (int i = 0; i < text.length; i++) {
            int d = text[i];
            if (j < folded.length && d == base(folded, 0, j, title)) {
                ops.run(COPY);
                j++;
            } else if (j < folded.length && d == upper(folded[j])) {
                ops.run(UPPER);
                j++;
            } else if (j + 1 < folded.length && (d == base(folded, 0, j + 1, title) || upper(folded[j + 1]) == d)) {
                // The folded byte has no counterpart here (an accent's base letter, a space for a hyphen).
                ops.run(SKIP);
                j++;
                i--;
            } else {
                ops.literal((byte) d);
            }
        }
        return ops.toArray();
    }

    /** The folded byte at {@code j} as a copy gives it: in title case, upper case at the start of a word. */
    private static int base(byte[] folded, int at, int j, boolean title) {
        return title && (j == at || folded[j - 1] == ' ') ? upper(folded[j]) : folded[j];
    }

    /** The text that the patch {@code patch[from, to)} makes of the folded text that starts at {@code folded[at]}. */
    static byte[] decode(byte[] patch, int from, int to, byte[] folded, int at) {
        if (from < to && patch[from] == 0) {
            return Arrays.copyOfRange(patch, from + 1, to);
        }
        boolean title = from < to && patch[from] == TITLE;
        ByteArrayOutputStream out = new ByteArrayOutputStream(2 * (to - from));
        int j = at;
        for (int p = title ? from + 1 : from; p < to; p++) {
            int op = patch[p] & 0xff;
            int count = op & MOST;
            switch (op & LITERAL) {
                case COPY -> {
                    for (int c = 0; c < count; c++) {
                        out.write(base(folded, at, j + c, title));
                    }
                }
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
