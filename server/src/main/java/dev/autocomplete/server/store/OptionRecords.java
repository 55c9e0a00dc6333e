package dev.autocomplete.server.store;

import dev.autocomplete.index.AliasCodes;
import dev.autocomplete.index.Folding;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one check of option records' shape, shared by the stores, the records API and the command line, so that
 * all three refuse the same records with the same reasons.
 */
public final class OptionRecords {

    /** The longest id, in characters (code points). */
    public static final int MAX_ID_LENGTH = 200;
    /** The longest text, alias or translation, in characters. */
    public static final int MAX_TEXT_LENGTH = 1000;
    /** The most aliases and translations one record may carry (each). */
    public static final int MAX_NAMES = 100;

    /** Attributes a record holds at most. */
    public static final int MAX_ATTRIBUTES = 16;

    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /**
     * A language tag as translations use it: a language of 2 or 3 letters (ISO 639), then subtags. BCP 47 also allows
     * a language of 5 to 8 letters, which no language in use has, and which took {@code french} for a tag (an operator
     * trial's typo, accepted in silence).
     */
    private static final Pattern LANGUAGE_TAG = Pattern.compile("[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*");

    private OptionRecords() {}

    /**
     * Why one record cannot be stored, if it cannot (its shape alone; see {@link #problems} for a batch). The reason
     * names the field: {@code 'text'}, {@code 'aliases[2]'}, {@code 'translations.fr'}.
     */
    public static Optional<String> problem(OptionRecord record) {
        return idProblem(record.id()).or(() -> contentProblem(record));
    }

    /**
     * {@link #problem} of all but the id: for a seed file's row, whose id (when it has none) is derived from its text
     * only once it is stored.
     */
    public static Optional<String> contentProblem(OptionRecord record) {
        Optional<String> text = textProblem("'text'", record.text());
        if (text.isPresent()) {
            return text;
        }
        if (!Folding.hasWord(record.text())) {
            return Optional.of("'text' has no letter or digit");
        }
        if (!Double.isFinite(record.weight())) {
            return Optional.of("'weight' must be a finite number");
        }
        if (record.aliases().size() > MAX_NAMES) {
            return Optional.of("'aliases' must hold at most " + MAX_NAMES + " aliases");
        }
        for (int i = 0; i < record.aliases().size(); i++) {
            String field = "'aliases[" + i + "]'";
            String alias = record.aliases().get(i);
            Optional<String> problem =
                    textProblem(field, alias).or(() -> AliasCodes.problem(alias).map(code -> field + " " + code));
            if (problem.isPresent()) {
                return problem;
            }
        }
        if (record.translations().size() > MAX_NAMES) {
            return Optional.of("'translations' must hold at most " + MAX_NAMES + " translations");
        }
        if (record.attributes().size() > MAX_ATTRIBUTES) {
            return Optional.of("'attributes' must hold at most " + MAX_ATTRIBUTES + " attributes");
        }
        for (Map.Entry<String, List<String>> attribute : record.attributes().entrySet()) {
            if (!ATTRIBUTE_NAME.matcher(attribute.getKey()).matches()) {
                return Optional.of("attribute name '" + abbreviate(printable(attribute.getKey()))
                        + "' must be 1 to 64 letters, digits, '_' or '-'");
            }
            if (attribute.getValue().isEmpty() || attribute.getValue().size() > MAX_NAMES) {
                return Optional.of("'attributes." + attribute.getKey() + "' must hold 1 to " + MAX_NAMES + " values");
            }
            for (String value : attribute.getValue()) {
                Optional<String> problem = textProblem("'attributes." + attribute.getKey() + "'", value);
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        for (Map.Entry<String, String> translation : record.translations().entrySet()) {
            Optional<String> tag = languageProblem("translation key", translation.getKey());
            if (tag.isPresent()) {
                return tag;
            }
            Optional<String> problem =
                    textProblem("'translations." + translation.getKey() + "'", translation.getValue());
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> textProblem(String field, String value) {
        if (value.isBlank()) {
            return Optional.of(field + " is blank");
        }
        if (value.codePointCount(0, value.length()) > MAX_TEXT_LENGTH) {
            return Optional.of(field + " is longer than " + MAX_TEXT_LENGTH + " characters");
        }
        return characterProblem(field, value);
    }

    /**
     * Control characters (U+0000 to U+001F, U+007F to U+009F, tab and line breaks included) and lone surrogates are
     * refused in every string of a record: PostgreSQL cannot store a NUL, SQLite stores it and the index never
     * matches it, a lone surrogate has no UTF-8 form (it was stored as {@code ?}), and none is ever typed.
     */
    private static Optional<String> characterProblem(String field, String value) {
        int bad = badCharacter(value, 0);
        if (bad < 0) {
            return Optional.empty();
        }
        char c = value.charAt(bad);
        return Optional.of(field + " must not contain "
                + (Character.isSurrogate(c) ? "a lone surrogate" : "a control character") + " (" + codePoint(c) + ")");
    }

    /** Where the first control character or lone surrogate of {@code value} is from {@code from} on, or -1. */
    private static int badCharacter(String value, int from) {
        for (int i = from; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pair = Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                i++;
            } else if (Character.isISOControl(c) || Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static String codePoint(char c) {
        return String.format("U+%04X", (int) c);
    }

    /** A value quoted in a reason with its control characters and lone surrogates as U+ codes. */
    private static String printable(String value) {
        StringBuilder out = new StringBuilder(value.length());
        int start = 0;
        for (int bad = badCharacter(value, 0); bad >= 0; bad = badCharacter(value, start)) {
            out.append(value, start, bad).append(codePoint(value.charAt(bad)));
            start = bad + 1;
        }
        return out.append(value, start, value.length()).toString();
    }

    /**
     * Every problem of a batch, by index: each record's shape, and an id or a folded text that an earlier record of
     * the batch already has (ambiguous: the batch is refused rather than one of them picked). Collisions with
     * records already stored are the store's to find.
     */
    public static List<InvalidRecordsException.Problem> problems(List<OptionRecord> records) {
        Batch batch = new Batch();
        for (OptionRecord record : records) {
            batch.add(record);
        }
        return batch.problems();
    }

    /**
     * The same checks for records read one at a time (a stream too large to hold): the ids and folded texts seen,
     * and the problems found so far.
     */
    static final class Batch {
        private final Map<String, Long> ids = new HashMap<>();
        private final Map<String, Long> texts = new HashMap<>();
        private final List<InvalidRecordsException.Problem> problems = new ArrayList<>();
        private long next;

        /** Checks the next record; true when it may be stored. */
        boolean add(OptionRecord record) {
            long index = next++;
            Optional<String> shape = problem(record);
            if (shape.isPresent()) {
                problems.add(new InvalidRecordsException.Problem(index, shape.get()));
                return false;
            }
            Long sameId = ids.putIfAbsent(record.id(), index);
            if (sameId != null) {
                problems.add(new InvalidRecordsException.Problem(index, repeatedId(record.id())));
                return false;
            }
            Long sameText = texts.putIfAbsent(TextFolding.fold(record.text()), index);
            if (sameText != null) {
                problems.add(new InvalidRecordsException.Problem(index, repeatedText(record.text())));
                return false;
            }
            return true;
        }

        List<InvalidRecordsException.Problem> problems() {
            return List.copyOf(problems);
        }
    }

    /**
     * Why a record repeating an earlier one's id is refused. The earlier one is not numbered: the store counts the
     * records it was given, while a writer counts array indexes or NDJSON lines.
     */
    public static String repeatedId(String id) {
        return "id '" + abbreviate(id) + "' is also the id of an earlier record of this write";
    }

    public static String repeatedText(String text) {
        return "text '" + abbreviate(text) + "' is also the text of an earlier record of this write (" + FOLDED + ")";
    }

    /** {@link #repeatedText} naming the earlier record: {@code earlier} is where it stands ({@code index 3}). */
    public static String repeatedText(String text, String earlier) {
        return "text '" + abbreviate(text) + "' is also the text of the record at " + earlier + " of this write ("
                + FOLDED + ")";
    }

    /** {@link #repeatedId} naming the earlier record: {@code earlier} is where it stands ({@code line 4}). */
    public static String repeatedId(String id, String earlier) {
        return "id '" + abbreviate(id) + "' is also the id of the record at " + earlier + " of this write";
    }

    /** How texts are compared for uniqueness: {@link TextFolding#fold}, said in every refusal of a repeated text. */
    private static final String FOLDED = "texts are compared ignoring case, accents, punctuation and spacing";

    /** Why a record whose text another stored id keeps is refused. */
    static String textTaken(String text, String otherId) {
        return "text '" + abbreviate(text) + "' is already the text of id '" + abbreviate(otherId) + "' (" + FOLDED
                + ")";
    }

    /**
     * Why a record's (or a patch's) translations are refused for the tenant's default language, whose text is the
     * option's own {@code text}: such a translation would show another text to users asking in the default language
     * than to those asking in none, and {@code catalog export} would write a column the import refuses.
     *
     * @param defaultLanguage the tenant's default language; null when unknown (nothing is refused)
     */
    public static Optional<String> defaultLanguageProblem(Map<String, String> translations, String defaultLanguage) {
        if (translations == null || defaultLanguage == null) {
            return Optional.empty();
        }
        for (String tag : translations.keySet()) {
            if (tag.equalsIgnoreCase(defaultLanguage)) {
                return Optional.of("'translations." + abbreviate(printable(tag)) + "': '" + abbreviate(printable(tag))
                        + "' is the tenant's default language, whose text is the record's 'text'");
            }
        }
        return Optional.empty();
    }

    /** Why an id cannot be stored, if it cannot: for ids the API takes in a path or cursor too. */
    public static Optional<String> idProblem(String id) {
        if (id.isBlank()) {
            return Optional.of("'id' is blank");
        }
        if (id.codePointCount(0, id.length()) > MAX_ID_LENGTH) {
            return Optional.of("'id' is longer than " + MAX_ID_LENGTH + " characters");
        }
        return characterProblem("'id'", id);
    }

    /** A value as quoted in a reason: long ones shortened, so that a reason stays readable. */
    static String abbreviate(String value) {
        return value.length() <= 80 ? value : value.substring(0, 77) + "...";
    }

    /**
     * What is wrong with a translation's language tag ({@code what} names it), with the tag meant when it is a language's
     * English name ({@code french}: did you mean 'fr'?); empty when it is a tag such as {@code fr} or {@code pt-BR}.
     */
    public static Optional<String> languageProblem(String what, String tag) {
        if (LANGUAGE_TAG.matcher(tag).matches()) {
            return Optional.empty();
        }
        String meant = "";
        for (String code : java.util.Locale.getISOLanguages()) {
            if (java.util.Locale.of(code)
                    .getDisplayLanguage(java.util.Locale.ENGLISH)
                    .equalsIgnoreCase(tag)) {
                meant = "; did you mean '" + code + "'?";
                break;
            }
        }
        return Optional.of(
                what + " '" + abbreviate(printable(tag)) + "' is not a language tag such as fr or pt-BR" + meant);
    }
}
