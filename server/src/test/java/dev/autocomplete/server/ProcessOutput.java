package dev.autocomplete.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** The output of a server process the tests start (Redis, PostgreSQL): watched for its ready line. */
public final class ProcessOutput {

    private ProcessOutput() {}

    /**
     * Reads the process's output on a virtual thread until it ends, handing each line to {@code each}, and keeps
     * draining after the ready line so that the process never blocks on a full pipe.
     *
     * @return completes with true at the first line containing {@code readyMarker}, false when the output ends first
     */
    public static CompletableFuture<Boolean> watch(Process process, String readyMarker, Consumer<String> each) {
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread.ofVirtual().start(() -> {
            try (reader) {
                String line;
                while ((line = reader.readLine()) != null) {
                    each.accept(line);
                    if (line.contains(readyMarker)) {
                        ready.complete(true);
                    }
                }
            } catch (IOException ignored) {
                // the process stopped
            }
            ready.complete(false);
        });
        return ready;
    }
}
