package dev.autocomplete.server.tenant;

import java.nio.file.Path;

/**
 * Something wrong with a tenant's files, printed as {@code file:line: message}.
 *
 * @param file the file at fault
 * @param line 1-based line, or 0 when the problem is with the file as a whole
 * @param message what is wrong, naming the key when there is one
 */
public record Problem(Path file, int line, String message) {

    @Override
    public String toString() {
        return file + ":" + (line > 0 ? line : 1) + ": " + message;
    }
}
