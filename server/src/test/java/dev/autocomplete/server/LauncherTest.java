package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code autocomplete} launcher script and the packaged JAR, run as a new operator runs them: from a working
 * directory of their own (not the repository), with relative paths, files anywhere, and pipes between commands.
 * The launcher is a copy of the repository's beside the packaged JAR, so it finds nothing to build; the working
 * directory reaches it as {@code ac/autocomplete}.
 */
@Timeout(300)
class LauncherTest {

    private static final String TENANT = TestTenants.paintShop("  colors: {}\n  copy: {}\n");

    /**
     * Options as {@code catalog export} writes them as CSV (ordered by id, translations' languages sorted), with
     * commas, quotes, accents, symbols, aliases, translations and fractional weights: imported and exported
     * again, the same bytes.
     */
    private static final String CSV = """
            id,text,aliases,weight,text_de,text_fr
            blue,Bleu Égée,,2,Blau,Bleu
            green,"Green ""Forest"", dark",moss|fern,0.25,,"Vert, « forêt »"
            red,"Red, Crimson",scarlet|ruby|rouge vif,3.5,Rot,
            teal,"Teal; ‘sea’ ☃ ""deep""\",,-1,,
            """;

    @TempDir
    Path temp;

    private Path work;

    @BeforeEach
    void layOut() throws IOException {
        Path root = Files.createDirectories(temp.resolve("ac"));
        Path launcher = Files.copy(TestTenants.repoRoot().resolve("autocomplete"), root.resolve("autocomplete"));
        assertTrue(launcher.toFile().setExecutable(true));
        Files.createSymbolicLink(
                Files.createDirectories(root.resolve("server/target")).resolve("autocomplete.jar"),
                PackagedServer.serverJar().toAbsolutePath());
        work = Files.createDirectories(temp.resolve("work"));
        Files.createSymbolicLink(work.resolve("ac"), root);
        Files.createDirectories(work.resolve("t3/tenants/shop"));
        Files.writeString(work.resolve("t3/tenants/shop/tenant.yaml"), TENANT);
    }

    @Test
    void relative_paths_are_the_working_directorys_and_a_file_outside_the_tenant_imports_into_a_catalog_without_one()
            throws Exception {
        Run validate = run("ac/autocomplete validate --tenants t3/tenants");
        assertEquals(0, validate.exit(), validate.err());
        assertTrue(validate.out().startsWith("ok: 1 tenant(s) in t3/tenants"), validate.out());

        Files.writeString(work.resolve("in.csv"), CSV);
        Run imported = run("ac/autocomplete catalog import --tenants t3/tenants --tenant shop --catalog colors in.csv");
        assertEquals(0, imported.exit(), imported.err());
        assertTrue(imported.out().contains("imported 4 option(s) into shop/colors"), imported.out());
        assertTrue(Files.isDirectory(work.resolve("t3/data")), "the data directory beside the tenants, here");
        assertFalse(Files.exists(temp.resolve("ac/t3")), "nothing resolved against the launcher's directory");

        Files.createDirectories(work.resolve("exports"));
        Run exported = run("ac/autocomplete catalog export --tenants t3/tenants --data-dir t3/data --tenant shop"
                + " --catalog colors exports/out.csv");
        assertEquals(0, exported.exit(), exported.err());
        assertEquals(CSV, Files.readString(work.resolve("exports/out.csv")), "CSV out is CSV in");

        Run reimported = run("ac/autocomplete catalog import --tenants t3/tenants --tenant shop --catalog copy"
                + " exports/out.csv && ac/autocomplete catalog export --tenants t3/tenants --tenant shop --catalog copy -"
                + " --format csv");
        assertEquals(0, reimported.exit(), reimported.err());
        assertEquals(CSV, reimported.out().substring(reimported.out().indexOf("id,text")), reimported.out());
    }

    @Test
    void export_to_standard_output_pipes_into_import_from_standard_input() throws Exception {
        Files.writeString(work.resolve("in.csv"), CSV);
        String options = "--tenants t3/tenants --tenant shop";
        assertEquals(
                0,
                run("ac/autocomplete catalog import " + options + " --catalog colors in.csv")
                        .exit());

        Run ndjson = run("ac/autocomplete catalog export " + options + " --catalog colors -");
        assertEquals(0, ndjson.exit(), ndjson.err());
        assertFalse(ndjson.err().contains("PRINTED"), "records go to stdout, not into the log: " + ndjson.err());
        List<String> lines = ndjson.out().lines().toList();
        assertEquals(4, lines.size(), ndjson.out());
        assertTrue(lines.get(1).startsWith("{\"id\":\"green\",\"text\":\"Green \\\"Forest\\\", dark\""), lines.get(1));

        for (String format : List.of("", " --format ndjson", " --format json", " --format csv")) {
            assertEquals(
                    0,
                    run("ac/autocomplete catalog import " + options + " --catalog copy in.csv")
                            .exit());
            Run pipe = run("set -o pipefail; ac/autocomplete catalog export " + options + " --catalog colors" + format
                    + " - | ac/autocomplete catalog import " + options + " --catalog copy" + format + " -");
            assertEquals(0, pipe.exit(), format + ": " + pipe.err());
            assertTrue(pipe.out().contains("imported 4 option(s) into shop/copy"), pipe.out());
            Run copy = run("ac/autocomplete catalog export " + options + " --catalog copy -");
            assertEquals(ndjson.out(), copy.out(), format + ": the copy holds what the catalog holds");
        }

        Run empty = run("true | ac/autocomplete catalog import " + options + " --catalog copy -");
        assertEquals(1, empty.exit(), empty.out());
        assertTrue(empty.err().contains("standard input holds no options; nothing was imported"), empty.err());
        assertEquals(
                ndjson.out(),
                run("ac/autocomplete catalog export " + options + " --catalog copy -")
                        .out(),
                "an empty pipe (a failed export) never empties a catalog");
    }

    @Test
    void help_lists_every_command_of_the_jar_and_of_the_launcher() throws Exception {
        Run help = run("ac/autocomplete help");
        assertEquals(0, help.exit(), help.err());
        // The launcher keeps --help for itself: the JAR's own list of commands, from the JAR.
        String java = ProcessHandle.current().info().command().orElse("java");
        Run jarHelp = run("'" + java + "' -jar ac/server/target/autocomplete.jar --help");
        assertEquals(0, jarHelp.exit(), jarHelp.err());
        String commands = jarHelp.out().substring(jarHelp.out().indexOf("Commands:"));
        List<String> names = new ArrayList<>(commands.lines()
                .skip(1)
                .filter(line -> line.startsWith("  ") && !line.startsWith("   "))
                .map(line -> line.strip().split(" ")[0])
                .toList());
        assertTrue(names.contains("catalog"), commands);
        names.addAll(List.of("test", "package", "install-sdk"));
        for (String name : names) {
            assertTrue(
                    help.out().lines().anyMatch(line -> line.startsWith("  " + name + " ")),
                    "help omits " + name + ":\n" + help.out());
        }
    }

    private record Run(int exit, String out, String err) {}

    /** A shell command line in the working directory {@code work}, its launcher at {@code ac/} beside it. */
    private Run run(String commandLine) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-c", commandLine)
                .directory(work.toFile())
                .start();
        process.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), commandLine + " did not end");
        return new Run(process.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
