package dev.autocomplete.index;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A display text stored as the few edits that turn its folded form (which the index keeps anyway) back into it:
 * {@code Paris Airport, FR} over {@code paris airport fr} is "one upper-case letter, five copied, one upper, six
 * copied, a comma, one copied, two upper": 8 bytes instead of 17. Each op is one byte, its kind in the top two
 * bits and a count of 1 to 63 below: copy bytes of the folded text, copy them in ASCII upper case, skip them, or
 * take the bytes that follow the op (an accent, punctuation). Copies may read the folded text in title case
 * (upper case at each word's start) when that makes the patch shorter: {@code Paris Airport, FR} is then "13
 * copied, a comma, two copied, one upper": 6 bytes. A patch that would not be shorter than the text is stored as
 * the text, after a 0 byte. Both sides are UTF-8; decoding gives the text's exact bytes.
 *
 * <p>The folded text's bytes left after the last op are copied (so a title-cased {@code Paris Airport} costs one
 * byte), and a patch may end the text with one of the catalog's frequent tails ({@link Tails}: {@code ", FR"} over
 * the folded {@code " fr"}), named by one byte after a {@code TAIL} or {@code TITLE_TAIL} first byte: {@code Paris
 * Airport, FR} is then 2 bytes. The patch's end is where the next name starts: it stores no length.
 */
final class TextPatches {

    private static final int COPY = 0;
    private static final int UPPER = 1 << 6;
    private static final int SKIP = 2 << 6;
    private static final int LITERAL = 3 << 6;
    private static final int MOST = 63;
    /** A first byte that no op starts with (an upper-case run of none): the ops copy the folded text title-cased. */
    private static final int TITLE = UPPER;
    /** First bytes no op starts with (a skip or a literal of none): a tail's number follows, then the ops. */
    private static final int TAIL = SKIP;

    private static final int TITLE_TAIL = LITERAL;

    private TextPatches() {}

    /**
     * The patch that turns {@code folded} back into {@code text}: the shorter of the patches over the folded bytes,
     * plain or in title case (after a {@code TITLE} byte), both with the tail numbered {@code tail} of {@code tails}
     * when it ends both ({@link Tails#find}, else -1), or the text itself after a 0 byte. One patch (for tests): a
     * catalog's build reuses an {@link Encoder}.
     */
    static byte[] encode(byte[] text, byte[] folded, Tails tails, int tail) {
        return new Encoder().encode(text, folded, tails, tail);
    }

    /** The patch without tails (for tests). */
    static byte[] encode(byte[] text, byte[] folded) {
        return encode(text, folded, Tails.NONE, -1);
    }

    /**
     * Encodes patches one after another in buffers it reuses: a catalog's build encodes a million, and the copies of
     * the heads, of each candidate's ops and of the check's decoded text took a fifth of the build. Not thread-safe.
     */
    static final class Encoder {
        private final Ops plain = new Ops();
        private final Ops title = new Ops();
        private byte[] decoded = new byte[64];

        /** As {@link TextPatches#encode(byte[], byte[], Tails, int)}. */
        byte[] encode(byte[] text, byte[] folded, Tails tails, int tail) {
            // Two bytes for the tail where its letters would take at least two ops: the tail's patches only.
            int textEnd = tail < 0 ? text.length : text.length - tails.texts[tail].length;
            int foldedEnd = tail < 0 ? folded.length : folded.length - tails.folded[tail].length;
            ops(plain, text, textEnd, folded, foldedEnd, false);
            ops(title, text, textEnd, folded, foldedEnd, true);
            int plainLength = plain.length() + (tail < 0 ? 0 : 2);
            int titleLength = title.length() + (tail < 0 ? 1 : 2);
            boolean titled = titleLength < plainLength;
            Ops chosen = titled ? title : plain;
            int length = titled ? titleLength : plainLength;
            if (length >= text.length + 1) {
                return verbatim(text);
            }
            byte[] patch = new byte[length];
            int at = 0;
            if (tail >= 0) {
                patch[at++] = (byte) (titled ? TITLE_TAIL : TAIL);
                patch[at++] = (byte) tail;
            } else if (titled) {
                patch[at++] = (byte) TITLE;
            }
            System.arraycopy(chosen.out, 0, patch, at, length - at);
            int most = folded.length + patch.length + (tail < 0 ? 0 : tails.texts[tail].length);
            if (decoded.length < most) {
                decoded = new byte[Math.max(most, 2 * decoded.length)];
            }
            int n = decode(patch, 0, patch.length, folded, 0, folded.length, tails, decoded);
            return Arrays.equals(decoded, 0, n, text, 0, text.length) ? patch : verbatim(text);
        }

        private static byte[] verbatim(byte[] text) {
            byte[] bytes = new byte[text.length + 1];
            System.arraycopy(text, 0, bytes, 1, text.length);
            return bytes;
        }
    }

    /**
     * Writes into {@code ops} the ops over {@code folded[0, foldedEnd)} that give {@code text[0, textEnd)}, in title
     * case when {@code title}; the folded bytes left at the end are skipped, and a copy that runs to the end is left
     * out (decoding copies what is left).
     */
    private static void ops(Ops ops, byte[] text, int textEnd, byte[] folded, int foldedEnd, boolean title) {
        ops.reset();
        int j = 0;
        for (int i = 0; i < textEnd; i++) {
            int d = text[i];
            if (j < foldedEnd && d == base(folded, 0, j, title)) {
                ops.run(COPY);
                j++;
            } else if (j < foldedEnd && d == upper(folded[j])) {
                ops.run(UPPER);
                j++;
            } else if (j + 1 < foldedEnd && (d == base(folded, 0, j + 1, title) || upper(folded[j + 1]) == d)) {
                // The folded byte has no counterpart here (an accent's base letter, a space for a hyphen).
                ops.run(SKIP);
                j++;
                i--;
            } else {
                ops.literal((byte) d);
            }
        }
        for (; j < foldedEnd; j++) {
            ops.run(SKIP);
        }
    }

    /** The folded byte at {@code j} as a copy gives it: in title case, upper case at the start of a word. */
    private static int base(byte[] folded, int at, int j, boolean title) {
        return title && (j == at || folded[j - 1] == ' ') ? upper(folded[j]) : folded[j];
    }

    /**
     * The text that the patch {@code patch[from, to)} makes of the folded text {@code folded[at, end)}, with the
     * catalog's {@code tails}: decoded into an array that has room for it, made a string from there (every text an
     * answer shows is decoded so; copying the bytes to an array of their exact length first showed in profiles).
     */
    static String text(byte[] patch, int from, int to, byte[] folded, int at, int end, Tails tails) {
        if (from < to && patch[from] == 0) {
            return new String(patch, from + 1, to - from - 1, StandardCharsets.UTF_8);
        }
        byte[] out = room(patch, from, to, at, end, tails);
        return new String(out, 0, decode(patch, from, to, folded, at, end, tails, out), StandardCharsets.UTF_8);
    }

    /** An array that holds what the patch decodes to: each op's bytes come from the folded text or the patch. */
    private static byte[] room(byte[] patch, int from, int to, int at, int end, Tails tails) {
        int first = from < to ? patch[from] & 0xff : -1;
        int tail = first == TAIL || first == TITLE_TAIL ? patch[from + 1] & 0xff : -1;
        return new byte[(end - at) + (to - from) + (tail < 0 ? 0 : tails.texts[tail].length)];
    }

    /**
     * Writes the text that the patch makes into {@code out} (at least {@code (end - at) + (to - from)} bytes and the
     * tail's text long), and returns its length.
     */
    private static int decode(byte[] patch, int from, int to, byte[] folded, int at, int end, Tails tails, byte[] out) {
        if (from < to && patch[from] == 0) {
            System.arraycopy(patch, from + 1, out, 0, to - from - 1);
            return to - from - 1;
        }
        int first = from < to ? patch[from] & 0xff : -1;
        boolean title = first == TITLE || first == TITLE_TAIL;
        int tail = first == TAIL || first == TITLE_TAIL ? patch[from + 1] & 0xff : -1;
        int headEnd = tail < 0 ? end : end - tails.folded[tail].length;
        int n = 0;
        int j = at;
        for (int p = from + (tail >= 0 ? 2 : title ? 1 : 0); p < to; p++) {
            int op = patch[p] & 0xff;
            int count = op & MOST;
            switch (op & LITERAL) {
                case COPY -> {
                    for (int c = 0; c < count; c++) {
                        out[n++] = (byte) base(folded, at, j + c, title);
                    }
                }
                case UPPER -> {
                    for (int c = 0; c < count; c++) {
                        out[n++] = (byte) upper(folded[j + c]);
                    }
                }
                case SKIP -> {}
                default -> {
                    System.arraycopy(patch, p + 1, out, n, count);
                    n += count;
                    p += count;
                    continue;
                }
            }
            j += count;
        }
        for (; j < headEnd; j++) {
            out[n++] = (byte) base(folded, at, j, title);
        }
        if (tail >= 0) {
            System.arraycopy(tails.texts[tail], 0, out, n, tails.texts[tail].length);
            n += tails.texts[tail].length;
        }
        return n;
    }

    /** {@link #text} of a whole folded text, without tails (for tests). */
    static String text(byte[] patch, int from, int to, byte[] folded, int at) {
        return text(patch, from, to, folded, at, folded.length, Tails.NONE);
    }

    private static int upper(byte b) {
        return b >= 'a' && b <= 'z' ? b - 32 : b;
    }

    /** The ops being written: runs of one kind are merged, literal bytes gathered. */
    private static final class Ops {
        private byte[] out = new byte[32];
        private int size;
        private int kind = -1;
        private int count;
        /** Where the open literal's op byte is in {@code out}, or -1. */
        private int literalAt = -1;
        /** Where the copies that end the ops so far start in {@code out}, or -1 when they end otherwise. */
        private int trailingCopies = -1;

        void run(int next) {
            closeLiteral();
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
            if (literalAt >= 0 && size - literalAt - 1 == MOST) {
                closeLiteral();
            }
            if (literalAt < 0) {
                trailingCopies = -1;
                literalAt = size;
                put(0);
            }
            put(b);
        }

        private void put(int b) {
            if (size == out.length) {
                out = Arrays.copyOf(out, 2 * size);
            }
            out[size++] = (byte) b;
        }

        private void flushRun() {
            if (kind >= 0) {
                if (kind != COPY) {
                    trailingCopies = -1;
                } else if (trailingCopies < 0) {
                    trailingCopies = size;
                }
                put(kind | count);
                kind = -1;
            }
        }

        private void closeLiteral() {
            if (literalAt >= 0) {
                out[literalAt] = (byte) (LITERAL | (size - literalAt - 1));
                literalAt = -1;
            }
        }

        void reset() {
            size = 0;
            kind = -1;
            count = 0;
            literalAt = -1;
            trailingCopies = -1;
        }

        /** How many bytes of {@code out} the ops take, without the copies that end them. */
        int length() {
            flushRun();
            closeLiteral();
            return trailingCopies < 0 ? size : trailingCopies;
        }
    }

    /**
     * A catalog's frequent tails: a text's last word of ASCII letters and digits with the ASCII separators before it
     * ({@code ", FR"}), and the folded bytes it stands for ({@code " fr"}), unless it is one space and the word in
     * title or lower case (a copy gives those). At most 256, each ending at least {@link #LEAST} texts, the most
     * frequent first: cities' country codes, or any catalog's shared last word written apart.
     */
    static final class Tails {

        static final Tails NONE = new Tails(List.of());

        private static final int LEAST = 8;
        private static final int MOST_TAILS = 256;
        private static final int LONGEST = 16;

        final byte[][] texts;
        final byte[][] folded;
        private final Map<String, Integer> numbers = new HashMap<>();

        private Tails(List<String> tails) {
            texts = new byte[tails.size()][];
            folded = new byte[tails.size()][];
            for (int i = 0; i < tails.size(); i++) {
                String tail = tails.get(i);
                texts[i] = tail.getBytes(StandardCharsets.US_ASCII);
                folded[i] = (" " + Folding.fold(tail)).getBytes(StandardCharsets.US_ASCII);
                numbers.put(tail, i);
            }
        }

        /** The tails that end at least {@link #LEAST} of the texts. */
        static Tails of(List<CatalogEntry> entries) {
            if (entries.size() < LEAST) {
                return NONE;
            }
            Map<String, int[]> counts = new HashMap<>();
            for (CatalogEntry entry : entries) {
                String tail = candidate(entry.text());
                if (tail != null) {
                    counts.computeIfAbsent(tail, t -> new int[1])[0]++;
                }
            }
            List<String> frequent = counts.entrySet().stream()
                    .filter(e -> e.getValue()[0] >= LEAST)
                    .sorted(Comparator.comparingInt((Map.Entry<String, int[]> e) -> -e.getValue()[0])
                            .thenComparing(Map.Entry::getKey))
                    .limit(MOST_TAILS)
                    .map(Map.Entry::getKey)
                    .toList();
            return frequent.isEmpty() ? NONE : new Tails(frequent);
        }

        /** The number of the tail that ends both the text (its string and bytes) and its folded bytes, or -1. */
        int find(String text, byte[] textBytes, byte[] foldedBytes) {
            if (texts.length == 0) {
                return -1;
            }
            String tail = candidate(text);
            Integer number = tail == null ? null : numbers.get(tail);
            if (number == null) {
                return -1;
            }
            byte[] f = folded[number];
            int from = foldedBytes.length - f.length;
            return from > 0 && Arrays.equals(foldedBytes, from, foldedBytes.length, f, 0, f.length) ? number : -1;
        }

        /** The text's tail, or null: a last word after separators, not the whole text, at most 16 characters. */
        static String candidate(String text) {
            int n = text.length();
            int word = n;
            while (word > 0 && n - word <= LONGEST && isWord(text.charAt(word - 1))) {
                word--;
            }
            int start = word;
            while (start > 0 && n - start <= LONGEST && isSeparator(text.charAt(start - 1))) {
                start--;
            }
            if (word == n || start == word || start == 0 || n - start > LONGEST) {
                return null;
            }
            boolean upperInside = false;
            for (int i = word + 1; i < n; i++) {
                upperInside |= text.charAt(i) >= 'A' && text.charAt(i) <= 'Z';
            }
            return word - start == 1 && text.charAt(start) == ' ' && !upperInside ? null : text.substring(start);
        }

        private static boolean isWord(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        }

        private static boolean isSeparator(char c) {
            return c < 0x80 && !isWord(c);
        }

        int size() {
            return texts.length;
        }

        /** Roughly what the table takes: per tail its two arrays and a map entry with its string. */
        long heapBytes() {
            long bytes = 0;
            for (int i = 0; i < texts.length; i++) {
                bytes += 120 + 3L * texts[i].length;
            }
            return bytes;
        }
    }
}
