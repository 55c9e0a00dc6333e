package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The seeded comparison of the index's answers (issue 19): on the synthesized million options (every 16th with an
 * alias, every 32nd with a French text), 10,000 random queries of seed 19 (prefixes, inner words, one-typo
 * prefixes, exact texts and aliases, some in French, some ending between words), then 2,000 more on the same
 * options with 1% pending changes (a delta and deletions), each read ({@link OptionLookup#read}) and offered
 * ({@link OptionLookup#offer}, top 10, learning and attributes off). Every query's answer is hashed; the hashes of
 * the index before the memory work are committed in {@code catalog-index/bench/compare-fingerprint.txt}, recorded
 * again once since, when a short last word stopped taking typos (810 answers changed, each of a query whose last
 * word is shorter than 4 characters: docs/benchmarks.md, "A short last word matched as typed").
 *
 * <p>Usage: {@code CompareResults repoRoot check|record}: {@code check} prints the queries whose answers differ
 * from the fingerprint and exits 1 if any; {@code record} writes the fingerprint. Both write every answer in full
 * to {@code catalog-index/bench/target/compare-answers.txt}, for a diff between two builds.
 */
public final class CompareResults {

    static final int QUERIES = 10_000;
    static final int PENDING_QUERIES = 2_000;
    private static final List<String> DEFAULT = List.of();
    private static final List<String> FRENCH = List.of("fr");

    private CompareResults() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        boolean record = args.length > 1 && args[1].equals("record");
        Path fingerprint = repo.resolve("catalog-index/bench/compare-fingerprint.txt");
        List<CatalogEntry> entries = entries(repo);
        long start = System.nanoTime();
        LiveOptions options = LiveOptions.of(entries);
        System.out.printf("indexed %,d options in %,d ms%n", entries.size(), (System.nanoTime() - start) / 1_000_000);
        List<String> answers = new ArrayList<>();
        Random random = new Random(19);
        for (int q = 0; q < QUERIES; q++) {
            answers.add(answer(options, query(entries, random), random));
        }
        LiveOptions pending = LiveLookupBenchmark.withPending(
                options,
                entries.stream()
                        .map(e -> new CatalogEntry(e.text(), e.weight()))
                        .toList(),
                10_000,
                random);
        for (int q = 0; q < PENDING_QUERIES; q++) {
            answers.add("pending " + answer(pending, query(entries, random), random));
        }
        Path full = repo.resolve("catalog-index/bench/target/compare-answers.txt");
        Files.createDirectories(full.getParent());
        Files.write(full, answers, StandardCharsets.UTF_8);
        List<String> hashes = answers.stream().map(CompareResults::hash).toList();
        if (record) {
            Files.write(fingerprint, hashes, StandardCharsets.UTF_8);
            System.out.printf("recorded %,d answers' hashes in %s (%s)%n", hashes.size(), fingerprint, full);
            return;
        }
        List<String> expected = Files.readAllLines(fingerprint, StandardCharsets.UTF_8);
        int differ = 0;
        for (int i = 0; i < Math.max(expected.size(), hashes.size()); i++) {
            if (i >= expected.size() || i >= hashes.size() || !expected.get(i).equals(hashes.get(i))) {
                if (differ++ < 20) {
                    System.out.println("differs: query " + i + ": " + (i < answers.size() ? answers.get(i) : "-"));
                }
            }
        }
        System.out.printf(
                "%,d of %,d answers (%,d queries, %,d with 1%% pending) the same as the fingerprint%n",
                hashes.size() - differ, expected.size(), QUERIES, PENDING_QUERIES);
        if (differ > 0) {
            System.exit(1);
        }
    }

    /** The synthesized options, every 16th with an alias (its words reversed), every 32nd with a French text. */
    static List<CatalogEntry> entries(Path repo) throws IOException {
        List<SyntheticCatalog.Option> options = SyntheticCatalog.distinct(SyntheticCatalog.generate(repo, 1_000_000));
        List<CatalogEntry> entries = new ArrayList<>(options.size());
        for (int i = 0; i < options.size(); i++) {
            SyntheticCatalog.Option o = options.get(i);
            List<String> aliases = i % 16 == 0 ? List.of(reversed(o.text())) : List.of();
            Map<String, String> translations = i % 32 == 0 ? Map.of("fr", "Ville " + o.text()) : Map.of();
            entries.add(new CatalogEntry(o.text(), aliases, o.weight(), translations));
        }
        return entries;
    }

    private static String reversed(String text) {
        List<String> words = new ArrayList<>(List.of(text.split("[ ,]+")));
        java.util.Collections.reverse(words);
        return String.join(" ", words);
    }

    /** A random query from a random option's text or alias: its kind decides how it is cut and spoiled. */
    private static String query(List<CatalogEntry> entries, Random random) {
        CatalogEntry entry = entries.get(random.nextInt(entries.size()));
        String text = !entry.aliases().isEmpty() && random.nextInt(4) == 0
                ? entry.aliases().get(0)
                : entry.text();
        String folded = Folding.fold(text);
        int kind = random.nextInt(10);
        if (kind == 0) {
            return text; // exact, as displayed
        }
        if (kind <= 3) {
            return cut(folded, 1 + random.nextInt(8), random); // prefix
        }
        if (kind <= 5) {
            int space = folded.indexOf(' ', random.nextInt(Math.max(1, folded.length())));
            String word = space < 0 ? folded : folded.substring(space + 1);
            return cut(word, 1 + random.nextInt(6), random); // inner word
        }
        String prefix = cut(folded, 4 + random.nextInt(6), random).strip(); // one typo
        if (prefix.length() < 2) {
            return prefix;
        }
        int at = 1 + random.nextInt(prefix.length() - 1);
        char letter = (char) ('a' + random.nextInt(26));
        return switch (random.nextInt(4)) {
            case 0 ->
                prefix.substring(0, at - 1) + prefix.charAt(at) + prefix.charAt(at - 1) + prefix.substring(at + 1);
            case 1 -> prefix.substring(0, at) + letter + prefix.substring(at + 1);
            case 2 -> prefix.substring(0, at) + prefix.substring(at + 1);
            default -> prefix.substring(0, at) + letter + prefix.substring(at);
        };
    }

    /** The first {@code length} characters, sometimes with a space after (typing went past a word). */
    private static String cut(String folded, int length, Random random) {
        String prefix = folded.substring(0, Math.min(length, folded.length()));
        return random.nextInt(8) == 0 ? prefix + " " : prefix;
    }

    private static String answer(LiveOptions options, String typed, Random random) {
        List<String> languages = random.nextInt(10) == 0 ? FRENCH : DEFAULT;
        OptionLookup.Reading reading = OptionLookup.read(options, typed, languages);
        StringBuilder line = new StringBuilder()
                .append(typed)
                .append('\t')
                .append(languages)
                .append('\t')
                .append(reading.kind())
                .append('\t')
                .append(reading.value());
        for (int option : OptionLookup.offer(options, new OptionLookup.Offer(typed, 10), languages)) {
            line.append('\t').append(options.text(option, languages));
        }
        return line.toString();
    }

    private static String hash(String answer) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(answer.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
