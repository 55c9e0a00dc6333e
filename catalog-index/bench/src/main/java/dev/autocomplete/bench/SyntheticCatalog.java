package dev.autocomplete.bench;

import dev.autocomplete.index.Folding;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * A deterministic catalog of a million places synthesized from the 135,233 GeoNames cities in
 * {@code ../shared/data/cities.csv}: each city with each of eight suffixes ({@code Paris},
 * {@code Paris Airport}, {@code Paris Central}...) and its country code, suffix by suffix, cut at the size
 * asked. The weight is the population divided by the suffix's rank.
 */
public final class SyntheticCatalog {

    /** One option: text and weight. */
    public record Option(String text, double weight) {}

    private static final List<String> SUFFIXES =
            List.of("", " Airport", " Central", " Old Town", " North", " South", " Harbour", " University");

    private SyntheticCatalog() {}

    /**
     * The shared data directory: {@code ../shared/data} relative to the repository root, or the nearest
     * {@code shared/data} above it (a git worktree may sit deeper than the main checkout).
     */
    public static Path sharedData(Path repoRoot) {
        for (Path dir = repoRoot.toAbsolutePath().normalize().getParent(); dir != null; dir = dir.getParent()) {
            Path data = dir.resolve("shared/data");
            if (Files.isRegularFile(data.resolve("cities.csv"))) {
                return data;
            }
        }
        return repoRoot.resolve("../shared/data").normalize();
    }

    public static List<Option> generate(Path repoRoot, int size) throws IOException {
        List<String[]> cities = new ArrayList<>();
        CSVFormat format = CSVFormat.RFC4180
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .get();
        try (Reader reader =
                Files.newBufferedReader(sharedData(repoRoot).resolve("cities.csv"), StandardCharsets.UTF_8)) {
            for (CSVRecord row : format.parse(reader)) {
                cities.add(new String[] {row.get("name"), row.get("country"), row.get("population")});
            }
        }
        List<Option> options = new ArrayList<>(size);
        for (int s = 0; s < SUFFIXES.size() && options.size() < size; s++) {
            for (int c = 0; c < cities.size() && options.size() < size; c++) {
                String[] city = cities.get(c);
                options.add(
                        new Option(city[0] + SUFFIXES.get(s) + ", " + city[1], Double.parseDouble(city[2]) / (s + 1)));
            }
        }
        if (options.size() < size) {
            throw new IllegalStateException("cities.csv gives only " + options.size() + " options");
        }
        return options;
    }

    /**
     * The options with a number after each repeated name ({@code Qarah Bāgh, AF (2)}): GeoNames has cities of
     * one name in one country, and the catalog engine refuses two options that fold to one text.
     */
    public static List<Option> distinct(List<Option> options) {
        Map<String, Integer> seen = new HashMap<>();
        List<Option> distinct = new ArrayList<>(options.size());
        for (Option option : options) {
            int repeat = seen.merge(Folding.fold(option.text()), 1, Integer::sum);
            distinct.add(repeat == 1 ? option : new Option(option.text() + " (" + repeat + ")", option.weight()));
        }
        return distinct;
    }

    /** Writes the options as a catalog CSV ({@code text,weight}). */
    public static void write(List<Option> options, Path file) throws IOException {
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter printer = CSVFormat.RFC4180
                        .builder()
                        .setHeader("text", "weight")
                        .get()
                        .print(writer)) {
            for (Option option : options) {
                printer.printRecord(option.text(), (long) option.weight());
            }
        }
    }
}
