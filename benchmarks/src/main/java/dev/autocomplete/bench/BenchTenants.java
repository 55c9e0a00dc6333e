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
     * Requests a second allowed to a benchmark key: far above any load here, so the service's answers are
     * measured, not the rate limiter's refusals (the default of 20 a second would refuse nearly every request),
     * while every request still goes through its bucket.
     */
    static final String RATE = "1000000";

    /**
     * Creates a public key for {@code product} of {@code tenant} with {@code keys create}, with a rate limit of
     * {@link #RATE}, and returns it.
     */
    public static String createKey(Path tenants, String tenant, String product) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"keys", "create", "--tenants", tenants.toString(), "--tenant", tenant,
                "--type", "public", "--product", product, "--rate", RATE}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        if (exit != 0) {
            throw new IllegalStateException("keys create failed for " + tenant + "/" + product);
        }
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        return lines.getLast().strip();
    }
}
