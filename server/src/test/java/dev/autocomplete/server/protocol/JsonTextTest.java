package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link JsonText}'s numbers, written digit by digit rather than through the JDK's strings. */
class JsonTextTest {

    private static String text(JsonText json) {
        return new String(json.bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void numbers_are_written_as_long_to_string_writes_them() {
        List<Long> numbers = new ArrayList<>(
                List.of(0L, 1L, 9L, 10L, 99L, 100L, 1_000_000_007L, Long.MAX_VALUE, -1L, -10L, Long.MIN_VALUE));
        Random random = new Random(5);
        for (int i = 0; i < 10_000; i++) {
            numbers.add(random.nextLong() >>> random.nextInt(64));
        }
        for (long number : numbers) {
            assertEquals(Long.toString(number), text(new JsonText(4).number(number)));
        }
    }

    @Test
    void padded_numbers_keep_their_width() {
        assertEquals("000000005", text(new JsonText(1).padded(5, 9)));
        assertEquals("120", text(new JsonText(1).padded(120, 3)));
        assertEquals("0", text(new JsonText(1).padded(0, 1)));
    }
}
