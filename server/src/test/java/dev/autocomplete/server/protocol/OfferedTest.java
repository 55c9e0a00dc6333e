package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Offered#hashFolded}, which folds ASCII text as it hashes it, against hashing the folded string. */
class OfferedTest {

    @Test
    void texts_hash_as_their_folded_strings_do() {
        String[] texts = {
            "",
            " ",
            "--",
            "Paris",
            "  New  York ",
            "Saint-Étienne",
            "São Paulo",
            "ST. LOUIS",
            "a_b",
            "3 Rue 7",
            "東京",
            "x\u0080y",
            "!Hello, World!",
            "Zürich"
        };
        for (String text : texts) {
            assertEquals(Offered.hash(TextFolding.fold(text)), Offered.hashFolded(text), text);
        }
    }

    @Test
    void random_texts_of_letters_digits_punctuation_and_accents_hash_alike() {
        String alphabet = "abcXYZ09 ,.-_/'()\t\u00e9\u00fc\u0301";
        Random random = new Random(5);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(12);
            for (int c = 0; c < length; c++) {
                // Mostly ASCII, as option texts are; about one text in eight holds an accent.
                int bound = random.nextInt(40) == 0 ? alphabet.length() : alphabet.length() - 3;
                text.append(alphabet.charAt(random.nextInt(bound)));
            }
            String each = text.toString();
            assertEquals(Offered.hash(TextFolding.fold(each)), Offered.hashFolded(each), each);
        }
    }
}
