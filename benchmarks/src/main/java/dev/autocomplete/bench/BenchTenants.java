package dev.autocomplete.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import dev.autocomplete.server.Main;

/** Tenants for benchmarks: keys made by the real command line. */
public final class BenchTenants {

    private BenchTenants() {
    }

    /**
     * Creates a public key for {@code product} of {@code tenant} with {@code keys create} and returns it; its
     * rate limit is far above what a benchmark sends, so the limiter never answers for the engine.
     */
    public static String createKey(Path tenants, String tenant, String product) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"keys", "create", "--tenants", tenants.toString(), "--tenant", tenant,
                "--type", "public", "--product", product, "--rate", "1000000"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        if (exit != 0) {
            throw new IllegalStateException("keys create failed for " + tenant + "/" + product);
        }
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        return lines.getLast().strip();
    }
}
