package dev.autocomplete.server;

import dev.autocomplete.server.cli.CatalogCommand;
import dev.autocomplete.server.cli.KeysCommand;
import dev.autocomplete.server.cli.LearningCommand;
import dev.autocomplete.server.cli.ServeCommand;
import dev.autocomplete.server.cli.StorageCommand;
import dev.autocomplete.server.cli.ValidateCommand;
import dev.autocomplete.server.observe.PrintedOutput;
import dev.autocomplete.server.observe.ServerLogManager;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code autocomplete} command line: {@code serve}, {@code keys}, {@code catalog}, {@code learning}, {@code validate}. */
@Command(
        name = "autocomplete",
        mixinStandardHelpOptions = true,
        version = "autocomplete 0.1.0",
        description = "A self-hostable autocomplete suggestion service.",
        subcommands = {
            ServeCommand.class,
            KeysCommand.class,
            CatalogCommand.class,
            LearningCommand.class,
            ValidateCommand.class,
            StorageCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (System.getProperty("java.util.logging.manager") == null) {
            // Before anything logs: keeps the log open while the server stops (ServerLogManager).
            System.setProperty("java.util.logging.manager", ServerLogManager.class.getName());
        }
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %3$s: %5$s%6$s%n");
        // Logging is configured here and by java.util.logging's own properties (java.util.logging.config.file), read
        // before the access log chooses its handler; Helidon's provider would read a logging.properties from the
        // working directory later, resetting every handler, the access log's among them.
        System.setProperty("io.helidon.logging.config.disabled", "true");
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintedOutput.install(); // engines' System.out and System.err become prefixed lines, apart from the access log
        int exit = run(args, out, err);
        if (exit != 0 || args.length == 0 || !"serve".equals(args[0])) {
            System.exit(exit);
        }
    }

    /** Runs one command with the given streams; returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new Main());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setExecutionExceptionHandler((e, command, parseResult) -> {
            boolean expected = e instanceof IllegalArgumentException
                    || e instanceof java.io.IOException
                    || e instanceof dev.autocomplete.server.store.NewerSchemaException;
            command.getErr().println("error: " + (expected ? e.getMessage() : e));
            return 2;
        });
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
