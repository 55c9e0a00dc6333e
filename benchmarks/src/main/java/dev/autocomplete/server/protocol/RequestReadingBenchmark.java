package dev.autocomplete.server.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.autocomplete.bench.SyntheticCatalog;
import dev.autocomplete.bench.load.WrkBenchmark;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.http.ServerJson;

/**
 * Reading one suggest body, the wrk benchmark's keystroke bodies in turn: the streaming
 * {@link SuggestRequestReader} against the tree parse and tree validation it replaced
 * ({@link TreeRequestReader}), with the server's own JSON mapper, and the UTF-8 check that the streaming reader
 * runs first. Sample-time mode gives the percentiles.
 * The repository root comes from the system property {@code autocomplete.repo}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class RequestReadingBenchmark {

    /** The bodies, and both readers, which must agree on every body. */
    @State(Scope.Benchmark)
    public static class Bodies {
        byte[][] bodies;
        TreeRequestReader tree;
        SuggestRequestReader streaming;

        @Setup(Level.Trial)
        public void load() throws IOException {
            Path repo = Path.of(System.getProperty("autocomplete.repo", "."));
            bodies = WrkBenchmark.journeys(SyntheticCatalog.generate(repo, 20_000), 400, new Random(11)).stream()
                    .map(body -> body.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
            ObjectMapper json = ServerJson.mapper(ServerSettings.defaults().limits());
            tree = new TreeRequestReader(json);
            streaming = new SuggestRequestReader(json);
            for (byte[] body : bodies) {
                if (!tree.read(body).equals(streaming.read(body))) {
                    throw new IllegalStateException("the readers disagree on "
                            + new String(body, StandardCharsets.UTF_8));
                }
            }
        }
    }

    /** Which body a thread reads next. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        byte[] of(byte[][] bodies) {
            next = next + 1 == bodies.length ? 0 : next + 1;
            return bodies[next];
        }
    }

    @Benchmark
    public SuggestRequest treeThenValidate(Bodies bodies, Cursor cursor) {
        return bodies.tree.read(cursor.of(bodies.bodies));
    }

    @Benchmark
    public SuggestRequest streaming(Bodies bodies, Cursor cursor) {
        return bodies.streaming.read(cursor.of(bodies.bodies));
    }

    /** The UTF-8 check alone, which {@link #streaming} includes and {@link #treeThenValidate} does not. */
    @Benchmark
    public boolean utf8Check(Bodies bodies, Cursor cursor) {
        return Utf8.isWellFormed(cursor.of(bodies.bodies));
    }
}
