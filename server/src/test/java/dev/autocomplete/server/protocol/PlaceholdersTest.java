package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written token scanner agrees with the grammar written as a regular expression. */
class PlaceholdersTest {

    private static final Pattern TOKEN = Pattern.compile("\\{\\{([A-Z0-9_]+)_([1-9][0-9]*)}}");

    private static List<Placeholders.Token> byRegex(String text) {
        List<Placeholders.Token> tokens = new ArrayList<>();
        Matcher matcher = TOKEN.matcher(text);
        while (matcher.find()) {
            tokens.add(new Placeholders.Token(matcher.start(), matcher.group(), matcher.group(1)));
        }
        return tokens;
    }

    @Test
    void finds_tokens_with_their_names_and_refuses_near_misses() {
        assertEquals(
                List.of(
                        new Placeholders.Token(5, "{{DEPARTURE_DATE_12}}", "DEPARTURE_DATE"),
                        new Placeholders.Token(38, "{{A_1_2}}", "A_1")),
                Placeholders.find("from {{DEPARTURE_DATE_12}} and {{x_1}}{{A_1_2}} {{A_01}} {{_1}} {{A_}}"));
        assertEquals(new Placeholders.Token(0, "{{ORIGIN_1}}", "ORIGIN"), Placeholders.parse("{{ORIGIN_1}}"));
        assertNull(Placeholders.parse("{{ORIGIN_1}} "));
        assertNull(Placeholders.parse("{{{ORIGIN_1}}"));
        assertEquals("DEPARTURE_DATE", Placeholders.mintedName("departure \t date"));
        assertEquals("ORIGIN", Placeholders.mintedName("origin"));
    }

    @Test
    void agrees_with_the_regular_expression_on_random_text() {
        Random random = new Random(3);
        String alphabet = "{{}}_AZ019 x\t";
        for (int i = 0; i < 50_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(30); n > 0; n--) {
                text.append(random.nextInt(6) == 0 ? "{{AB_1}}" : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String candidate = text.toString();
            assertEquals(byRegex(candidate), Placeholders.find(candidate), candidate);
            Matcher whole = TOKEN.matcher(candidate);
            assertEquals(
                    whole.matches() ? new Placeholders.Token(0, candidate, whole.group(1)) : null,
                    Placeholders.parse(candidate),
                    candidate);
            assertEquals(
                    Pattern.compile("\\s+")
                            .matcher(candidate.toUpperCase(Locale.ROOT))
                            .replaceAll("_"),
                    Placeholders.mintedName(candidate),
                    candidate);
        }
    }
}
