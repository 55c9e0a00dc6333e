package dev.autocomplete.bench.quality;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * Target queries on the demo products, drawn with a fixed seed: travel picks cities with a probability
 * proportional to their population; workspace picks a type and then its params uniformly.
 */
final class TargetQueries {

    /** One param value the simulated user wants. */
    record Value(String type, String text) {}

    /** One query: the product and the values, in the order the user types them. */
    record Target(String product, List<Value> values) {}

    private static final List<String> CABINS = List.of("Economy", "Premium economy", "Business", "First");
    private static final List<String> TOPICS =
            List.of("Project update", "Meeting follow-up", "Invoice", "Weekly report", "Introduction", "Thank you");
    private static final List<String> TRIGGERS = List.of(
            "A form is submitted",
            "A new lead arrives",
            "An invoice is overdue",
            "A meeting ends",
            "Every Monday morning");
    private static final List<String> ACTIONS =
            List.of("Send an email", "Notify the team", "Create a task", "Update the CRM", "Post to the channel");
    private static final List<String> METRICS =
            List.of("Revenue", "Active users", "Churn", "Conversion rate", "Support tickets", "Pipeline value");
    private static final List<String> PERIODS =
            List.of("This week", "Last week", "This month", "Last month", "This quarter", "This year");

    private TargetQueries() {}

    static List<Target> generate(Path demoTenant, int travel, int workspace, long seed) throws IOException {
        Random random = new Random(seed);
        List<String> cities = new ArrayList<>();
        double[] cumulative = cities(demoTenant, cities);
        List<String> contacts = new ArrayList<>();
        for (CSVRecord row : csv(demoTenant.resolve("data/contacts.csv"))) {
            contacts.add(row.get("text"));
        }
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < travel; i++) {
            String origin = weighted(cities, cumulative, random);
            String destination = origin;
            while (destination.equals(origin)) {
                destination = weighted(cities, cumulative, random);
            }
            List<Value> values =
                    new ArrayList<>(List.of(new Value("origin", origin), new Value("destination", destination)));
            if (random.nextInt(3) == 0) {
                values.add(new Value("cabin", pick(CABINS, random)));
            }
            targets.add(new Target("travel", values));
        }
        for (int i = 0; i < workspace; i++) {
            List<Value> values = new ArrayList<>();
            switch (random.nextInt(3)) {
                case 0 -> {
                    values.add(new Value("type", "email"));
                    values.add(new Value("contact", pick(contacts, random)));
                    if (random.nextBoolean()) {
                        values.add(new Value("topic", pick(TOPICS, random)));
                    }
                }
                case 1 -> {
                    values.add(new Value("type", "automation"));
                    values.add(new Value("trigger", pick(TRIGGERS, random)));
                    values.add(new Value("action", pick(ACTIONS, random)));
                }
                default -> {
                    values.add(new Value("type", "insight"));
                    values.add(new Value("metric", pick(METRICS, random)));
                    if (random.nextBoolean()) {
                        values.add(new Value("period", pick(PERIODS, random)));
                    }
                }
            }
            targets.add(new Target("workspace", values));
        }
        return targets;
    }

    /**
     * The learning simulation's favourite destinations: {@code count} cities drawn with {@code random} among those
     * ranked {@code fromRank} to {@code toRank} (1-based, inclusive) by population in the demo's cities; the order
     * drawn is their order of popularity.
     */
    static List<String> favourites(Path demoTenant, int count, int fromRank, int toRank, Random random)
            throws IOException {
        List<CSVRecord> rows = new ArrayList<>(csv(demoTenant.resolve("data/cities.csv")));
        rows.sort(java.util.Comparator.comparingDouble((CSVRecord row) -> Double.parseDouble(row.get("weight")))
                .reversed());
        List<String> ranked = new ArrayList<>();
        for (CSVRecord row : rows.subList(fromRank - 1, toRank)) {
            ranked.add(row.get("text"));
        }
        java.util.Collections.shuffle(ranked, random);
        return List.copyOf(ranked.subList(0, count));
    }

    /**
     * Travel journeys of the learning simulation: an origin drawn with a probability proportional to population
     * (as {@link #generate}), then a destination among {@code favourites} with Zipf frequencies (the k-th with a
     * weight of 1/k^{@code exponent}), never the origin.
     */
    static List<Target> journeys(Path demoTenant, List<String> favourites, double exponent, int count, Random random)
            throws IOException {
        List<String> cities = new ArrayList<>();
        double[] byPopulation = cities(demoTenant, cities);
        List<Double> zipf = new ArrayList<>();
        for (int k = 1; k <= favourites.size(); k++) {
            zipf.add(Math.pow(k, -exponent));
        }
        double[] byZipf = cumulative(zipf);
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String origin = weighted(cities, byPopulation, random);
            String destination = origin;
            while (destination.equals(origin)) {
                destination = weighted(favourites, byZipf, random);
            }
            targets.add(
                    new Target("travel", List.of(new Value("origin", origin), new Value("destination", destination))));
        }
        return targets;
    }

    /** Adds the demo's cities to {@code cities}, in file order; returns their cumulative populations. */
    private static double[] cities(Path demoTenant, List<String> cities) throws IOException {
        List<Double> populations = new ArrayList<>();
        for (CSVRecord row : csv(demoTenant.resolve("data/cities.csv"))) {
            cities.add(row.get("text"));
            populations.add(Double.parseDouble(row.get("weight")));
        }
        return cumulative(populations);
    }

    private static double[] cumulative(List<Double> weights) {
        double[] cumulative = new double[weights.size()];
        double sum = 0;
        for (int i = 0; i < cumulative.length; i++) {
            sum += weights.get(i);
            cumulative[i] = sum;
        }
        return cumulative;
    }

    /**
     * The text with one typo in every word of 4+ letters: two neighbouring inner letters swapped (never the
     * first or the last letter), chosen with {@code random}.
     */
    static String withTypos(String text, Random random) {
        StringBuilder out = new StringBuilder();
        for (String word : text.split(" ", -1)) {
            if (out.length() > 0) {
                out.append(' ');
            }
            if (word.length() >= 4 && word.chars().allMatch(Character::isLetter)) {
                char[] chars = word.toCharArray();
                int i = 1 + random.nextInt(word.length() - 3);
                char swap = chars[i];
                chars[i] = chars[i + 1];
                chars[i + 1] = swap;
                out.append(chars);
            } else {
                out.append(word);
            }
        }
        return out.toString();
    }

    private static String weighted(List<String> items, double[] cumulative, Random random) {
        double at = random.nextDouble() * cumulative[cumulative.length - 1];
        int i = java.util.Arrays.binarySearch(cumulative, at);
        return items.get(i >= 0 ? i : -i - 1);
    }

    private static String pick(List<String> items, Random random) {
        return items.get(random.nextInt(items.size()));
    }

    private static List<CSVRecord> csv(Path file) throws IOException {
        CSVFormat format = CSVFormat.RFC4180
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .get();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return format.parse(reader).getRecords();
        }
    }
}
