package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The folding the index is built on: the ASCII and Latin fast paths agree with the general one. */
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

    @Test
    void any_text_folds_as_the_regular_expressions_of_the_definition_fold_it() {
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(
                "İstanbul",
                "ΣΊΣΥΦΟΣ ΣΑΣ",
                "ǅemal",
                "ﬁne ½ ²",
                "Straße",
                "東京都 Tokyo",
                "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \uD800 x",
                "a\u0301\u20DD b",
                "Ⅻ th",
                "  ¡¿Qué?!  ",
                "e\u0903x",
                ""));
        java.util.Random random = new java.util.Random(19);
        for (int t = 0; t < 20_000; t++) {
            StringBuilder text = new StringBuilder();
            for (int c = random.nextInt(12); c > 0; c--) {
                text.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x80) : random.nextInt(0x30000));
            }
            texts.add(text.toString());
        }
        // The Latin scripts and the combining marks, which fold char by char: each char alone, and mixed.
        for (char c = 0; c < 0x400; c++) {
            texts.add("a" + c + "b " + c + c);
        }
        for (int t = 0; t < 20_000; t++) {
            StringBuilder text = new StringBuilder();
            for (int c = random.nextInt(12); c > 0; c--) {
                text.append((char) (random.nextInt(3) == 0 ? random.nextInt(0x80) : 0x80 + random.nextInt(0x2f0)));
            }
            texts.add(text.toString());
        }
        for (String text : texts) {
            assertEquals(!Folding.fold(text).isEmpty(), Folding.hasWord(text), text);
            String decomposed = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKD);
            String plain = decomposed.replaceAll("\\p{M}+", "").toLowerCase(java.util.Locale.ROOT);
            assertEquals(plain.replaceAll("[^\\p{L}\\p{N}]+", " ").strip(), Folding.fold(text), text);
        }
    }

    @Test
    void a_text_has_a_word_when_it_folds_to_something() {
        org.junit.jupiter.api.Assertions.assertTrue(Folding.hasWord("?-a"));
        org.junit.jupiter.api.Assertions.assertTrue(Folding.hasWord("– é"));
        org.junit.jupiter.api.Assertions.assertTrue(Folding.hasWord("!東京"));
        org.junit.jupiter.api.Assertions.assertFalse(Folding.hasWord("?! ́ ·"));
        org.junit.jupiter.api.Assertions.assertFalse(Folding.hasWord("‼ —"));
        org.junit.jupiter.api.Assertions.assertFalse(Folding.hasWord(""));
    }

    @Test
    void folded_hash_is_the_hash_of_the_folded_text_without_folding_ascii_first() {
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of(
                "", "?!", "  New-York,  NY! ", "Route\t66", "a", "A-", "-a", "São Paulo, BR", "Zürich", "東京都 Tokyo"));
        java.util.Random random = new java.util.Random(23);
        String ascii = "aZ09 -,.!\t_~";
        for (int t = 0; t < 20_000; t++) {
            StringBuilder text = new StringBuilder();
            for (int c = random.nextInt(14); c > 0; c--) {
                text.append(
                        random.nextInt(20) == 0
                                ? (char) (0x80 + random.nextInt(0x300))
                                : random.nextBoolean()
                                        ? ascii.charAt(random.nextInt(ascii.length()))
                                        : (char) random.nextInt(0x80));
            }
            texts.add(text.toString());
        }
        for (String text : texts) {
            assertEquals(Folding.hash(Folding.fold(text)), Folding.foldedHash(text), text);
        }
        // Not a constant: texts that fold apart hash apart.
        org.junit.jupiter.api.Assertions.assertNotEquals(Folding.foldedHash("Porto"), Folding.foldedHash("Poznan"));
    }
}
