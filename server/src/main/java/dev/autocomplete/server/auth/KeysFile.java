package dev.autocomplete.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.tenant.TenantLoader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A tenant's {@code keys.yaml}: key ids, types, products, digests and times; never a key. Writes go to a
 * temporary file that atomically replaces the old one, under a lock, so a running server never reads half
 * a file and two commands never lose each other's keys. A writer killed between the two leaves its temporary
 * file behind: the next write, and the server's start, delete it.
 */
public final class KeysFile {

    public static final String FILE_NAME = TenantLoader.KEYS_FILE;

    private static final String TEMP_PREFIX = ".keys";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final String IMPORTED_INTO = "imported_into";
    /** The line {@link #markImported} writes, with its line break. */
    private static final Pattern MARK_LINE = Pattern.compile("(?m)^" + IMPORTED_INTO + ":.*(\\R|\\z)");

    private static final ObjectMapper JSON_TEXT = new ObjectMapper();

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build());

    private final Path file;
    private final String tenantId;

    public KeysFile(Path tenantDirectory) {
        this.file = tenantDirectory.resolve(FILE_NAME);
        this.tenantId = tenantDirectory.getFileName().toString();
    }

    public Path path() {
        return file;
    }

    /**
     * The file read once: every key record, revoked ones included, and where its keys went when {@code storage
     * migrate} or a server on PostgreSQL imported it (its {@code imported_into} line, which they write; from then
     * on no server reads the file, and a key written into it is one no server knows). Empty without a file.
     */
    public record Contents(List<KeyRecord> records, Optional<String> importedInto) {}

    /** See {@link Contents}. */
    public Contents contents() throws IOException {
        if (!Files.exists(file)) {
            return new Contents(List.of(), Optional.empty());
        }
        JsonNode root = YAML.readTree(file.toFile());
        Optional<String> importedInto =
                root == null || !root.path(IMPORTED_INTO).isTextual()
                        ? Optional.empty()
                        : Optional.of(root.path(IMPORTED_INTO).asText());
        return new Contents(records(root), importedInto);
    }

    /** Every key record, revoked ones included; empty when the file does not exist. */
    public List<KeyRecord> read() throws IOException {
        return contents().records();
    }

    private List<KeyRecord> records(JsonNode root) throws IOException {
        List<KeyRecord> records = new ArrayList<>();
        JsonNode keys = root == null ? null : root.get("keys");
        if (keys == null || keys.isNull()) {
            return records;
        }
        if (!keys.isArray()) {
            throw new IOException(file + ": 'keys' must be a list");
        }
        for (int i = 0; i < keys.size(); i++) {
            JsonNode key = keys.get(i);
            try {
                String product = text(key, "product");
                String revoked = text(key, "revoked_at");
                records.add(new KeyRecord(
                        required(key, "id"),
                        KeyType.fromWireName(required(key, "type")),
                        tenantId,
                        product == null ? null : Uuids.require(product, "product"),
                        required(key, "digest"),
                        Instant.parse(required(key, "created_at")),
                        revoked == null ? null : Instant.parse(revoked),
                        scope(key)));
            } catch (RuntimeException e) {
                throw new IOException(file + ": keys[" + i + "]: " + e.getMessage(), e);
            }
        }
        return records;
    }

    /**
     * Writes the {@code imported_into} line at the top of the file (in place of an earlier one), under the
     * lock: {@code where} (the database, never its password, and when). The rest of the file stays as it was, and
     * so does its {@link #digest()}.
     *
     * @return false when there is no file
     */
    public boolean markImported(String where) throws IOException {
        try (FileChannel channel = openLock()) {
            channel.lock();
            if (!Files.exists(file)) {
                return false;
            }
            String content = Files.readString(file);
            String marked = IMPORTED_INTO + ": " + JSON_TEXT.writeValueAsString(where) + "\n"
                    + MARK_LINE.matcher(content).replaceAll("");
            if (!marked.equals(content)) { // a replica's every start marks it again: the file is written once
                replaceWith(marked);
            }
            return true;
        }
    }

    /**
     * The digest of the file's content without its {@code imported_into} line: what an import records, to tell
     * later whether the file changed since.
     */
    public String digest() throws IOException {
        return ApiKeys.digest(MARK_LINE.matcher(Files.readString(file)).replaceAll(""));
    }

    /**
     * Applies a change to the records and writes them back, under a lock; refuses a file that was imported into
     * PostgreSQL ({@link Contents#importedInto()}).
     */
    public List<KeyRecord> update(UnaryOperator<List<KeyRecord>> change) throws IOException {
        try (FileChannel channel = openLock()) {
            channel.lock(); // held until the channel closes
            deleteTemporaryFiles();
            Contents contents = contents();
            if (contents.importedInto().isPresent()) {
                throw new IOException(
                        file + " was imported into " + contents.importedInto().get() + ", and its keys are kept "
                                + "there now: no server reads this file. Give this command the servers' storage URL "
                                + "(AUTOCOMPLETE_STORAGE_URL, or storage.url in the --config file). To keep keys in this "
                                + "file again (a deployment back on SQLite), delete its " + IMPORTED_INTO + " line.");
            }
            List<KeyRecord> updated = change.apply(new ArrayList<>(contents.records()));
            write(updated);
            return updated;
        }
    }

    /**
     * Deletes the temporary files that writers killed mid-write left behind, under the lock so that no writer at
     * work loses its file. Does nothing while another writer holds the lock (its own write cleans up), and takes
     * no lock, creating no lock file, when there is nothing to delete.
     *
     * @return how many files were deleted
     */
    public int removeStaleTemporaryFiles() throws IOException {
        if (temporaryFiles().isEmpty()) {
            return 0;
        }
        try (FileChannel channel = openLock();
                FileLock lock = channel.tryLock()) {
            return lock == null ? 0 : deleteTemporaryFiles();
        } catch (OverlappingFileLockException e) {
            return 0; // this process is writing the file right now
        }
    }

    private FileChannel openLock() throws IOException {
        return FileChannel.open(
                file.resolveSibling(FILE_NAME + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    private List<Path> temporaryFiles() throws IOException {
        List<Path> temporary = new ArrayList<>();
        try (DirectoryStream<Path> files =
                Files.newDirectoryStream(file.getParent(), TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
            files.forEach(temporary::add);
        }
        return temporary;
    }

    /** Only with the lock held. */
    private int deleteTemporaryFiles() throws IOException {
        int deleted = 0;
        for (Path temporary : temporaryFiles()) {
            if (Files.deleteIfExists(temporary)) {
                deleted++;
            }
        }
        return deleted;
    }

    private void write(List<KeyRecord> records) throws IOException {
        ObjectNode root = YAML.createObjectNode();
        ArrayNode keys = root.putArray("keys");
        for (KeyRecord record : records) {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("id", record.id());
            fields.put("type", record.type().wireName());
            if (record.productId() != null) {
                fields.put("product", record.productId().toString());
            }
            fields.put("digest", record.digest());
            fields.put("created_at", record.createdAt().toString());
            if (record.revokedAt() != null) {
                fields.put("revoked_at", record.revokedAt().toString());
            }
            KeyScope scope = record.scope();
            if (scope.expiresAt() != null) {
                fields.put("expires_at", scope.expiresAt().toString());
            }
            ObjectNode node = keys.addObject();
            fields.forEach(node::put);
            if (!scope.origins().isEmpty()) {
                ArrayNode origins = node.putArray("origins");
                scope.origins().forEach(origin -> origins.add(origin.toString()));
            }
            if (!scope.allowNoOrigin()) {
                node.put("allow_no_origin", false);
            }
            if (scope.rate() != null) {
                node.putObject("rate")
                        .put("per_second", scope.rate().perSecond())
                        .put("burst", scope.rate().burst());
            }
            if (scope.restricted()) {
                ArrayNode uses = node.putArray("uses");
                KeyUse.names(scope.uses()).forEach(uses::add);
            }
        }
        String header = "# Managed by `./autocomplete keys`. Digests only: the keys themselves are never stored.\n";
        replaceWith(header + YAML.writeValueAsString(root));
    }

    /** Only with the lock held: the file's new content, through a temporary file moved over it. */
    private void replaceWith(String content) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), TEMP_PREFIX, TEMP_SUFFIX);
        try {
            Files.writeString(temp, content);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static KeyScope scope(JsonNode key) {
        List<OriginPattern> origins = new ArrayList<>();
        JsonNode list = key.get("origins");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw new IllegalArgumentException("'origins' must be a list");
            }
            list.forEach(origin -> origins.add(OriginPattern.parse(origin.asText())));
        }
        JsonNode allowNoOrigin = key.get("allow_no_origin");
        if (allowNoOrigin != null && !allowNoOrigin.isNull() && !allowNoOrigin.isBoolean()) {
            throw new IllegalArgumentException("'allow_no_origin' must be true or false");
        }
        String expires = text(key, "expires_at");
        RateLimit rate = null;
        JsonNode rateNode = key.get("rate");
        if (rateNode != null && !rateNode.isNull()) {
            if (!rateNode.path("per_second").isIntegralNumber()
                    || !rateNode.path("burst").isIntegralNumber()) {
                throw new IllegalArgumentException("'rate' needs whole numbers per_second and burst");
            }
            rate = new RateLimit(
                    rateNode.path("per_second").asLong(), rateNode.path("burst").asLong());
        }
        return new KeyScope(
                origins,
                allowNoOrigin == null || allowNoOrigin.isNull() || allowNoOrigin.asBoolean(),
                expires == null ? null : Instant.parse(expires),
                rate,
                uses(key));
    }

    /** Absent: every use, as keys made before uses existed keep them. */
    private static Set<KeyUse> uses(JsonNode key) {
        JsonNode list = key.get("uses");
        if (list == null || list.isNull()) {
            return KeyUse.ALL;
        }
        if (!list.isArray() || list.isEmpty()) {
            throw new IllegalArgumentException(
                    "'uses' must be a list of " + String.join(", ", KeyUse.names(KeyUse.ALL)));
        }
        List<String> names = new ArrayList<>();
        list.forEach(use -> names.add(use.asText()));
        return KeyUse.parse(names);
    }

    private static String required(JsonNode node, String field) {
        String value = text(node, field);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("'" + field + "' is required");
        }
        return value;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
