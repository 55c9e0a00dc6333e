package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The one UUID check of the server, which request ids, product ids, tokens and keys.yaml all go through. */
class UuidsTest {

    @Test
    void a_uuid_is_eight_four_four_four_twelve_hex_digits_in_either_case() {
        assertTrue(Uuids.isUuid("3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c90"));
        assertTrue(Uuids.isUuid("3F1C2E9A-0B7D-4C55-9A3E-1D2F4B6A8C90"));
        assertEquals(
                Optional.of(UUID.fromString("3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c90")),
                Uuids.parse("3F1C2E9A-0B7D-4C55-9A3E-1D2F4B6A8C90"));
    }

    @Test
    void what_uuid_from_string_would_take_is_not_a_uuid() {
        for (String text : List.of(
                "1-2-3-4-5",
                "3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c9",
                "3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c900",
                "3f1c2e9a+0b7d-4c55-9a3e-1d2f4b6a8c90",
                "3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c9g",
                "3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c9\u0669",
                "{3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c}",
                "")) {
            assertFalse(Uuids.isUuid(text), text);
            assertEquals(Optional.empty(), Uuids.parse(text), text);
        }
        assertEquals(Optional.empty(), Uuids.parse(null));
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> Uuids.require("1-2-3-4-5", "product"));
        assertEquals("product must be a UUID (8-4-4-4-12 hex)", refused.getMessage());
    }

    @Test
    void version_4_needs_the_version_digit_4_and_a_variant_digit_of_8_9_a_or_b() {
        assertTrue(Uuids.isUuidV4("3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c90"));
        assertTrue(Uuids.isUuidV4("3f1c2e9a-0b7d-4c55-Ba3e-1d2f4b6a8c90"));
        assertFalse(Uuids.isUuidV4("3f1c2e9a-0b7d-1c55-9a3e-1d2f4b6a8c90"));
        assertFalse(Uuids.isUuidV4("3f1c2e9a-0b7d-4c55-7a3e-1d2f4b6a8c90"));
    }
}
