package dev.autocomplete.server.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.util.Arrays;

/**
 * The UTF-8 length of a JSON value's compact form (docs/protocol.md §3.9): no insignificant whitespace, strings escaped
 * only where JSON must (not {@code /}, not non-ASCII: a character outside the BMP is its 4 bytes), and numbers as the
 * client wrote them. Measured on the value's own tokens rather than on a tree written back, where {@code 1e300} became
 * the 7 bytes of a double's {@code 1.0E300}, {@code 1e2} the 5 of {@code 100.0}, and {@code 1e400} no number at all.
 */
final class CompactJsonSize {

    private CompactJsonSize() {}

    /**
     * The compact length of the one JSON value in {@code json[from, to)}.
     *
     * @throws IOException when it is not one JSON value
     * @throws IllegalArgumentException when a string holds a lone surrogate, which UTF-8 cannot write
     */
    static long of(JsonFactory factory, byte[] json, int from, int to) throws IOException {
        long size = 0;
        // Per open container: whether it is an object, and how many elements (members) it has so far: a comma before
        // each after the first.
        boolean[] object = new boolean[16];
        int[] elements = new int[16];
        int depth = 0;
        JsonStringEncoder strings = JsonStringEncoder.getInstance();
        try (JsonParser parser = factory.createParser(json, from, to - from)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                    size++;
                    depth--;
                    continue;
                }
                if (depth > 0 && (object[depth - 1] ? token == JsonToken.FIELD_NAME : true)) {
                    size += elements[depth - 1]++ > 0 ? 1 : 0;
                }
                switch (token) {
                    case START_OBJECT, START_ARRAY -> {
                        size++;
                        if (depth == object.length) {
                            object = Arrays.copyOf(object, depth * 2);
                            elements = Arrays.copyOf(elements, depth * 2);
                        }
                        object[depth] = token == JsonToken.START_OBJECT;
                        elements[depth++] = 0;
                    }
                    case FIELD_NAME -> size += strings.quoteAsUTF8(parser.currentName()).length + 3; // the quotes, ':'
                    case VALUE_STRING -> size += strings.quoteAsUTF8(parser.getText()).length + 2;
                    default -> size += parser.getText().length(); // a number as written; true, false or null
                }
            }
        }
        return size;
    }
}
