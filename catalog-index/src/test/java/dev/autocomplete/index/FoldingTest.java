package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The folding the index is built on: the ASCII fast path agrees with the general one. */
class FoldingTest {

    @Test
    void ascii_text_folds_to_lower_case_words_separated_by_single_spaces() {
        assertEquals("new york ny", Folding.fold("  New-York,  NY! "));
        assertEquals("route 66", Folding.fold("Route\t66"));
        assertEquals("", Folding.fold("?!"));
    }

    @Test
    void accented_text_folds_like_its_ascii_spelling() {
        assertEquals(Folding.fold("Sao Paulo, BR"), Folding.fold("São Paulo, BR"));
        assertEquals("sant julia de loria", Folding.fold("Sant Julià de Lòria"));
    }
}
