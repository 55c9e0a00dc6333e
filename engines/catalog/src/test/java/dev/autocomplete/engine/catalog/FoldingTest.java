package dev.autocomplete.engine.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import dev.autocomplete.spi.toolkit.TextFolding;

/** The folding the index is built on: the ASCII fast path agrees with the general one. */
class FoldingTest {

    @Test
    void ascii_text_folds_to_lower_case_words_separated_by_single_spaces() {
        assertEquals("new york ny", TextFolding.fold("  New-York,  NY! "));
        assertEquals("route 66", TextFolding.fold("Route\t66"));
        assertEquals("", TextFolding.fold("?!"));
    }

    @Test
    void accented_text_folds_like_its_ascii_spelling() {
        assertEquals(TextFolding.fold("Sao Paulo, BR"), TextFolding.fold("São Paulo, BR"));
        assertEquals("sant julia de loria", TextFolding.fold("Sant Julià de Lòria"));
    }
}
