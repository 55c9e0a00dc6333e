package dev.autocomplete.server.learning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.autocomplete.spi.toolkit.TextFolding;
import org.junit.jupiter.api.Test;

/** What a pick keeps of the client's texts: the typed tail before it, and the picked text analytics shows. */
class PickTextTest {

    private static String display(String selected) {
        return Learning.display(selected, TextFolding.fold(selected));
    }

    @Test
    void the_text_as_offered_is_shown_and_one_that_only_folds_to_it_is_shown_folded() {
        assertEquals("São Paulo", display("São Paulo"));
        assertEquals("Washington, D.C.", display(" Washington, D.C. "));
        assertEquals("subotica", display("Subotica\u0000"), "a NUL, which PostgreSQL refuses");
        assertEquals("subotica", display("\u202eSubotica\u200b"), "a bidi override, a zero-width space");
        assertEquals("subotica", display("Ｓｕｂｏｔｉｃａ"), "fullwidth letters");
        assertEquals("subotica", display("𝐒𝐮𝐛𝐨𝐭𝐢𝐜𝐚"), "mathematical letters");
        assertEquals("subotica", display("<<<Subotica>>>" + "!".repeat(450)), "wrapped in punctuation");
        assertEquals("subotica", display("***Subotica***"), "wrapped in punctuation, short enough to pass for it");
        assertEquals("1 World Trade Center", display("1 World Trade Center"), "a text may start with a digit");
    }

    @Test
    void the_typed_tail_is_found_after_a_long_query_and_a_tail_longer_than_the_option_is_not_read() {
        assertEquals("Por", TypedTail.of("Book a flight from {{ORIGIN_1}} to Por", "Porto"));
        // An inner word's start was typed for the option too (the server offers it; the client appends the pick).
        assertEquals("Sch", TypedTail.of("Email Sch", "Tom Schulz"));
        assertEquals("Martin Sch", TypedTail.of("Email Martin Sch", "Martin Schulz"), "a prefix still wins");
        assertEquals("", TypedTail.of("Email Xy", "Tom Schulz"));
        assertEquals("sao pa", TypedTail.of("Book a flight to sao pa", "São Paulo"));
        String words = "a ".repeat(8_000);
        assertEquals("Po", TypedTail.of(words + "ж Po", "Porto"));
        assertEquals("", TypedTail.of(words + "ж", "Porto"));
        // A tail that folds to a prefix of the option but is more than twice its length is not what anyone typed.
        assertEquals("Porto", TypedTail.of("to " + "!".repeat(40) + " Porto", "Porto"));
    }
}
