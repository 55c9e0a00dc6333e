package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Display texts kept as edits over their folded names come back exactly, and smaller where folding changed little. */
class TextPatchesTest {

    private static final List<String> TEXTS = List.of(
            "Paris Airport, FR",
            "Hårby Old Town, DK",
            "Verneuil-sur-Seine, FR",
            "São Paulo",
            "  --Leading and trailing!!  ",
            "ÆØÅ straße ﬁ ½",
            "東京都 Tokyo",
            "Αθήνα",
            "!!!",
            "a".repeat(200) + "B".repeat(150) + "-é".repeat(80),
            "MiXeD CaSe 123 ABC-def_ghi");

    @Test
    void everyTextComesBackFromTheCatalog() {
        List<CatalogEntry> entries = new ArrayList<>();
        for (String text : TEXTS) {
            entries.add(new CatalogEntry(text, List.of("alias of " + text), entries.size(), Map.of()));
        }
        OptionCatalog catalog = new OptionCatalog(entries);
        for (int option = 0; option < TEXTS.size(); option++) {
            assertEquals(TEXTS.get(option), catalog.text(option));
            assertEquals(List.of("alias of " + TEXTS.get(option)), catalog.aliases(option));
        }
    }

    @Test
    void aMostlyFoldedTextCostsAFewBytes() {
        byte[] text = "Paris Airport, FR".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] folded = Folding.fold("Paris Airport, FR").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] patch = TextPatches.encode(text, folded);
        assertTrue(patch.length <= 6, "patch of " + patch.length + " bytes");
        assertEquals("Paris Airport, FR", TextPatches.text(patch, 0, patch.length, folded, 0));
    }

    @Test
    void aFrequentTailCostsOneByteAndEveryTextStillComesBack() {
        List<CatalogEntry> entries = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            texts.add("City " + (char) ('A' + i) + ", FR");
            texts.add("Ville-" + i + " sur Mer, FR");
            texts.add("Zürich " + i + ", CH");
        }
        // Edge cases next to the frequent tails: a tail alone, lower and title case, a tail-like text not
        // folding like it, non-ASCII before the tail, a very long name.
        texts.addAll(List.of(
                ", FR",
                "x, fr",
                "Y, Fr",
                "--, FR",
                "Ærø, FR",
                "東京, CH",
                "Paris (FR)",
                "Paris, FR ",
                "a".repeat(300) + ", FR"));
        for (String text : texts) {
            entries.add(new CatalogEntry(text, entries.size()));
        }
        TextPatches.Tails tails = TextPatches.Tails.of(entries);
        assertEquals(2, tails.size(), "the two tails used by at least 8 texts");
        byte[] city = "City A, FR".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] folded = Folding.fold("City A, FR").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] patch = TextPatches.encode(city, folded, tails, tails.find("City A, FR", city, folded));
        assertEquals(2, patch.length, "a title-cased text with a known tail: the tail's number only");
        OptionCatalog catalog = new OptionCatalog(entries);
        for (int option = 0; option < texts.size(); option++) {
            assertEquals(texts.get(option), catalog.text(option));
        }
    }

    @Test
    void theFoldedBytesLeftOverAreSkippedNotCopied() {
        for (String text : List.of("Ærø", "ﬁ", "½", "Straße", "ǅ")) {
            byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] folded = Folding.fold(text).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] patch = TextPatches.encode(bytes, folded);
            assertEquals(text, TextPatches.text(patch, 0, patch.length, folded, 0));
        }
    }
}
