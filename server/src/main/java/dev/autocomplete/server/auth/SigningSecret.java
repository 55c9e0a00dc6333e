package dev.autocomplete.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

/**
 * Where the access-token signing secret comes from, in order: the {@code AUTOCOMPLETE_TOKEN_SECRET}
 * environment variable, a file named by {@code --token-secret-file} or {@code AUTOCOMPLETE_TOKEN_SECRET_FILE},
 * else a secret this server generated at its first start and stored with owner-only permissions. Replicas
 * that verify each other's tokens must share it. The secret itself is never logged.
 */
public final class SigningSecret {

    public static final String ENV_SECRET = "AUTOCOMPLETE_TOKEN_SECRET";
    public static final String ENV_SECRET_FILE = "AUTOCOMPLETE_TOKEN_SECRET_FILE";
    /** HS256 keys shorter than the hash are weak; java-jwt and RFC 7518 ask for at least 256 bits. */
    static final int MIN_BYTES = 32;

    private static final System.Logger LOG = System.getLogger(SigningSecret.class.getName());

    private SigningSecret() {
    }

    /**
     * @param secretFile the file given on the command line, or null
     * @param generatedFile where a generated secret is kept when nothing is configured
     */
    public static byte[] resolve(Map<String, String> env, Path secretFile, Path generatedFile) throws IOException {
        String fromEnv = env.get(ENV_SECRET);
        if (fromEnv != null && !fromEnv.isBlank()) {
            LOG.log(System.Logger.Level.INFO, "Access tokens are signed with the secret in " + ENV_SECRET + ".");
            return checked(fromEnv.strip(), ENV_SECRET);
        }
        Path file = secretFile;
        if (file == null && env.get(ENV_SECRET_FILE) != null && !env.get(ENV_SECRET_FILE).isBlank()) {
            file = Path.of(env.get(ENV_SECRET_FILE).strip());
        }
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new IOException("token secret file not found: " + file);
            }
            LOG.log(System.Logger.Level.INFO, "Access tokens are signed with the secret in " + file + ".");
            return checked(Files.readString(file, StandardCharsets.UTF_8).strip(), file.toString());
        }
        if (!Files.exists(generatedFile)) {
            generate(generatedFile);
        }
        return checked(Files.readString(generatedFile, StandardCharsets.UTF_8).strip(), generatedFile.toString());
    }

    private static void generate(Path file) throws IOException {
        byte[] random = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(random);
        String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Path directory = file.toAbsolutePath().getParent();
        boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.isDirectory(directory)) {
            if (posix) {
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(directory);
            }
        }
        Path temp = posix
                ? Files.createTempFile(directory, ".token-secret", ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile(directory, ".token-secret", ".tmp");
        try {
            Files.writeString(temp, secret + "\n", StandardCharsets.UTF_8);
            Files.move(temp, file);
            LOG.log(System.Logger.Level.WARNING, "No token signing secret configured: generated one and stored it in "
                    + file + " (owner-only). Replicas must share one: set " + ENV_SECRET + " or --token-secret-file.");
        } catch (FileAlreadyExistsException e) {
            // Another process sharing this directory generated one first; use theirs.
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static byte[] checked(String secret, String source) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("the token signing secret from " + source + " must be at least "
                    + MIN_BYTES + " bytes long");
        }
        return bytes;
    }
}
