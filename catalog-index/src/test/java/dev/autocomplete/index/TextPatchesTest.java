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
        assertTrue(patch.length <= 7, "patch of " + patch.length + " bytes");
        assertEquals(
                "Paris Airport, FR",
                new String(
                        TextPatches.decode(patch, 0, patch.length, folded, 0),
                        java.nio.charset.StandardCharsets.UTF_8));
    }
}
