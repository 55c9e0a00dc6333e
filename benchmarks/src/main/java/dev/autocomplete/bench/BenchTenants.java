package dev.autocomplete.bench;

import dev.autocomplete.server.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Tenants for benchmarks: keys made by the real command line. */
public final class BenchTenants {

    private BenchTenants() {}

    /**
     * Creates a public key for {@code product} of {@code tenant} with {@code keys create} and more
     * {@code options}, and returns it. Unless the options set {@code --rate}, its rate limit is far above what
     * a benchmark sends, so the limiter never answers for the engine.
     */
    public static String createKey(Path tenants, String tenant, String product, String... options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of(
                "keys",
                "create",
                "--tenants",
                tenants.toString(),
                "--tenant",
                tenant,
                "--type",
                "public",
                "--product",
                product));
        if (!List.of(options).contains("--rate")) {
            args.addAll(List.of("--rate", "1000000"));
        }
        args.addAll(List.of(options));
        int exit =
                Main.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        if (exit != 0) {
            throw new IllegalStateException("keys create failed for " + tenant + "/" + product);
        }
        List<String> lines = out.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
        return lines.getLast().strip();
    }
}
