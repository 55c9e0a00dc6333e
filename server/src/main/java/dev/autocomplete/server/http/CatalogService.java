package dev.autocomplete.server.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.auth.Admitted;
import dev.autocomplete.server.auth.KeyUse;
import dev.autocomplete.server.catalogs.CheckedRecords;
import dev.autocomplete.server.catalogs.LiveCatalogs;
import dev.autocomplete.server.catalogs.PatchReader;
import dev.autocomplete.server.catalogs.RecordReader;
import dev.autocomplete.server.catalogs.RecordWriter;
import dev.autocomplete.server.catalogs.WriteSpool;
import dev.autocomplete.server.engines.LogThrottle;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.store.CatalogChangedException;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.OptionRecords;
import dev.autocomplete.server.store.PlatformThreads;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.spi.toolkit.TextFolding;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The records API of live catalogs (docs/protocol.md §8): upsert, delete, export in pages and replace the options
 * of a catalog the key's tenant declares. A secret key with the {@code catalogs} use only; called from the
 * customer's servers, so no CORS. A write is applied to the store and the in-memory index before it is
 * acknowledged; a refused write applies nothing.
 */
public final class CatalogService implements HttpService {

    static final String LIST_PATH = "/api/catalogs";
    static final String PATH = "/api/catalogs/{catalog}/options";
    /** The most ids one batch delete takes: its transaction stays short. */
    static final int MAX_DELETE_IDS = 10_000;
    /** The catalog and the id of a path to one option, raw (percent-encoded). */
    private static final Pattern OPTION_PATH = Pattern.compile("/api/catalogs/([^/]+)/options/(.+)");
    /** The start of every path of one catalog, as sent: its name is the segment read here. */
    private static final Pattern CATALOG_PATH = Pattern.compile("/api/catalogs/([^/]+)/options(?:/|$)");

    static final int DEFAULT_PAGE = 100;
    static final int MAX_PAGE = 1000;
    private static final String NDJSON = "application/x-ndjson";
    private static final System.Logger LOG = System.getLogger(CatalogService.class.getName());

    /** The batch delete's path, which also reads and deletes the option whose id is {@code delete}. */
    private static final Pattern BATCH_DELETE_PATH = Pattern.compile("/api/catalogs/[^/]+/options/delete");

    private final Gatekeeper gatekeeper;
    private final LiveCatalogs catalogs;
    private final WriteSpool spool;
    private final LogThrottle spoolWarnings = new LogThrottle(Duration.ofMinutes(1));
    private final ObjectMapper json;
    private final ErrorResponses errors;
    private final ConnectionGuard guard;
    private final long bodyLimit;
    private final Duration bodyTimeout;

    /**
     * @param bodyLimit the largest body of a write, in bytes (413 above)
     * @param bodyTimeout how long such a body may take to arrive
     */
    public CatalogService(
            Gatekeeper gatekeeper,
            LiveCatalogs catalogs,
            WriteSpool spool,
            ObjectMapper json,
            ErrorResponses errors,
            ConnectionGuard guard,
            long bodyLimit,
            Duration bodyTimeout) {
        this.gatekeeper = gatekeeper;
        this.catalogs = catalogs;
        this.spool = spool;
        this.json = json;
        this.errors = errors;
        this.guard = guard;
        this.bodyLimit = bodyLimit;
        this.bodyTimeout = bodyTimeout;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.route(HeadRequests.get(LIST_PATH, this::list))
                .any(
                        LIST_PATH,
                        (req, res) -> errors.methodNotAllowed(res, "GET, HEAD", "Use GET to list the key's catalogs."))
                .post(PATH, this::upsert)
                .put(PATH, this::replace)
                .patch(PATH, this::patch)
                .route(HeadRequests.get(PATH, this::page))
                .post(PATH + "/delete", this::deleteBatch)
                // {+id}: the rest of the path, '/' included; the id itself is read from the raw path (optionId).
                .route(HeadRequests.get(PATH + "/{+id}", this::getOne))
                .delete(PATH + "/{+id}", this::delete)
                .any(
                        PATH,
                        (req, res) -> errors.methodNotAllowed(
                                res,
                                "GET, HEAD, POST, PUT, PATCH",
                                "Use GET, POST, PUT or PATCH for a catalog's options."))
                .any(
                        PATH + "/{+id}",
                        (req, res) -> errors.methodNotAllowed(
                                res,
                                BATCH_DELETE_PATH
                                                .matcher(req.path().absolute().rawPath())
                                                .matches()
                                        ? "GET, HEAD, DELETE, POST"
                                        : "GET, HEAD, DELETE",
                                "Use GET or DELETE for one option, or POST on .../options/delete to delete a batch."));
    }

    private void upsert(ServerRequest request, ServerResponse response) {
        int upserted;
        try (Target target = target(request, response);
                CheckedRecords checked = checked(request, target)) {
            CatalogRef ref = target.ref();
            RecordReader records = checked.records();
            List<OptionRecord> batch = PlatformThreads.call(records::readAll);
            if (checked.invalid() > 0) {
                refuseWithConflicts(ref, checked, records, batch);
            }
            upserted = stored(() -> catalogs.upsert(ref, batch), records);
        }
        send(response, Status.OK_200, out -> out.writeNumberField("upserted", upserted));
    }

    private void replace(ServerRequest request, ServerResponse response) {
        long count;
        try (Target target = target(request, response);
                CheckedRecords checked = checked(request, target)) {
            CatalogRef ref = target.ref();
            refuseProblems(checked);
            // The store reads the checked records from the local copy, in one short transaction.
            RecordReader records = checked.records();
            if (!records.hasNext() && checked.format() == RecordReader.Format.NDJSON) {
                // An upstream step that failed leaves blank lines (`echo "$EMPTY" | curl --data-binary @-`): that
                // never empties a catalog, as `catalog import` refuses an empty file. An empty array says so on
                // purpose.
                throw ApiException.badRequest(
                        "INVALID_JSON",
                        "The body holds no record (NDJSON of blank lines only); nothing was replaced. To empty the"
                                + " catalog, send [] as application/json.");
            }
            count = stored(() -> catalogs.replace(ref, records), records);
        }
        send(response, Status.OK_200, out -> out.writeNumberField("options", count));
    }

    private void delete(ServerRequest request, ServerResponse response) {
        boolean deleted;
        try (Target target = target(request, response)) {
            String id = optionId(request);
            deleted = stored(() -> catalogs.delete(target.ref(), id), null);
        }
        if (!deleted) {
            throw optionNotFound();
        }
        response.status(Status.NO_CONTENT_204);
        response.header(Headers.NO_STORE);
        response.send();
    }

    private void page(ServerRequest request, ServerResponse response) {
        List<OptionRecord> page;
        int limit;
        try (Target target = target(request, response)) {
            limit = limit(request);
            String after = request.query()
                    .first("cursor")
                    .filter(cursor -> !cursor.isEmpty()) // `cursor=` on a first call, as many clients send it
                    .map(CatalogService::cursorId)
                    .orElse(null);
            String prefix = foldedQuery(request);
            page = stored(() -> catalogs.store().page(target.ref(), after, limit + 1, prefix), null);
        }
        boolean more = page.size() > limit;
        List<OptionRecord> shown = more ? page.subList(0, limit) : page;
        String next = more ? cursorOf(shown.getLast().id()) : null;
        send(response, Status.OK_200, out -> {
            out.writeArrayFieldStart("options");
            for (OptionRecord record : shown) {
                RecordWriter.write(out, record);
            }
            out.writeEndArray();
            out.writeStringField("next_cursor", next);
        });
    }

    /** {@code GET /api/catalogs}: the catalogs the key's tenant declares, by name. */
    private void list(ServerRequest request, ServerResponse response) {
        Map<String, LiveCatalogs.Summary> summaries = new java.util.TreeMap<>();
        try (Admitted admitted = gatekeeper.admitSecret(request, response, KeyUse.CATALOGS)) {
            Tenant tenant = admitted.caller().tenant();
            for (String name : tenant.catalogs()) {
                CatalogRef ref = new CatalogRef(tenant.id(), name);
                summaries.put(name, stored(() -> catalogs.summary(ref), null));
            }
        }
        send(response, Status.OK_200, out -> {
            out.writeArrayFieldStart("catalogs");
            for (Map.Entry<String, LiveCatalogs.Summary> catalog : summaries.entrySet()) {
                out.writeStartObject();
                out.writeStringField("name", catalog.getKey());
                out.writeNumberField("options", catalog.getValue().options());
                out.writeNumberField("generation", catalog.getValue().generation());
                out.writeEndObject();
            }
            out.writeEndArray();
        });
    }

    /** {@code GET …/options/{id}}: one record, every field present. */
    private void getOne(ServerRequest request, ServerResponse response) {
        OptionRecord record;
        try (Target target = target(request, response)) {
            String id = optionId(request);
            record = stored(() -> catalogs.get(target.ref(), id), null).orElseThrow(CatalogService::optionNotFound);
        }
        sendData(response, Status.OK_200, out -> RecordWriter.write(out, record));
    }

    /**
     * {@code PATCH …/options}: records of an id and the fields to change, merged into the stored ones in the
     * store's transaction, all or nothing. The body is read whole before the transaction starts.
     */
    private void patch(ServerRequest request, ServerResponse response) {
        int patched;
        try (Target target = target(request, response)) {
            RecordReader.Format format = format(request);
            PatchReader patches;
            try {
                patches = PatchReader.read(
                        format,
                        json,
                        requestBody(request, "send records of an id and the fields to change"),
                        target.defaultLanguage());
            } catch (RecordReader.MalformedBody e) {
                throw ApiException.badRequest("INVALID_JSON", e.getMessage() + " Nothing was applied.");
            }
            boolean lines = format == RecordReader.Format.NDJSON;
            if (!patches.problems().isEmpty()) {
                throw invalid(patches.problems(), lines);
            }
            patched = stored(
                    () -> {
                        try {
                            return catalogs.patch(target.ref(), patches.patches());
                        } catch (InvalidRecordsException e) {
                            // The store counts the patches it was given; they are placed back where they stood in the
                            // body.
                            throw invalid(
                                    e.problems().stream()
                                            .map(problem -> new InvalidRecordsException.Problem(
                                                    patches.positionOf(problem.index()), problem.reason()))
                                            .toList(),
                                    lines);
                        }
                    },
                    null);
        }
        send(response, Status.OK_200, out -> out.writeNumberField("patched", patched));
    }

    /** {@code POST …/options/delete} with {@code {"ids": […]}}: ids the catalog does not hold are not counted. */
    private void deleteBatch(ServerRequest request, ServerResponse response) {
        int deleted;
        try (Target target = target(request, response)) {
            List<String> ids = ids(request);
            deleted = stored(() -> catalogs.delete(target.ref(), ids), null);
        }
        send(response, Status.OK_200, out -> out.writeNumberField("deleted", deleted));
    }

    private List<String> ids(ServerRequest request) {
        if (format(request) != RecordReader.Format.ARRAY) {
            throw new ApiException(415, "UNSUPPORTED_MEDIA_TYPE", "Send {\"ids\": [...]} as application/json.");
        }
        JsonNode body;
        try (InputStream in = requestBody(request, "send {\"ids\": [...]}")) {
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(in.readAllBytes()))
                    .toString();
            body = json.reader()
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(RecordReader.withoutByteOrderMark(text));
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body is not valid UTF-8.");
        } catch (JacksonException e) {
            throw ApiException.invalidJson(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode ids = body == null ? null : body.get("ids");
        if (ids == null || !ids.isArray()) {
            throw ApiException.badRequest("INVALID_REQUEST", "The body is {\"ids\": [\"id\", ...]}.");
        }
        if (body.size() > 1) {
            // As a record's unknown field is refused: a misspelt field must not pass unseen.
            throw ApiException.badRequest(
                    "INVALID_REQUEST",
                    "The body holds a field other than ids: it is {\"ids\": [\"id\", ...]}; nothing was deleted.");
        }
        if (ids.size() > MAX_DELETE_IDS) {
            throw ApiException.badRequest(
                    "INVALID_REQUEST", "At most " + MAX_DELETE_IDS + " ids a request; split" + " the batch.");
        }
        List<String> list = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            String problem =
                    ids.get(i).isTextual() ? RecordReader.idProblem(ids.get(i).asText()) : "id is not a string";
            if (problem != null) {
                throw ApiException.badRequest(
                        "INVALID_REQUEST", "ids[" + i + "]: " + problem + "; nothing was deleted.");
            }
            list.add(ids.get(i).asText());
        }
        return list;
    }

    private static ApiException optionNotFound() {
        return new ApiException(404, "OPTION_NOT_FOUND", "The catalog has no option with this id.");
    }

    /**
     * The id of a path to one option: everything after {@code /options/}, percent-decoded here from the raw path,
     * since Helidon's decoded path has turned an encoded '/' into a separator (and drops what follows a ';').
     */
    private static String optionId(ServerRequest request) {
        Matcher raw = OPTION_PATH.matcher(request.path().absolute().rawPath());
        // A path whose dot segments moved it to another catalog was refused by target(), which every route runs first.
        if (!raw.matches()) {
            throw new ApiException(404, "NOT_FOUND", "No such endpoint.");
        }
        String id = percentDecoded(raw.group(2));
        String problem = RecordReader.idProblem(id);
        if (problem != null) {
            throw ApiException.badRequest("INVALID_REQUEST", problem + ".");
        }
        return id;
    }

    /**
     * The refusal of a path to one option that no route took, or null. Helidon matches routes on the decoded path,
     * where a line break in the id ({@code %0A}, {@code %0D}) ends the match: such a path would otherwise be "No
     * such endpoint" instead of the bad id it is, as {@code %00} is.
     */
    public static ApiException unroutedOptionId(ServerRequest request) {
        Matcher raw = OPTION_PATH.matcher(request.path().absolute().rawPath());
        if (!raw.matches()) {
            return null;
        }
        try {
            String problem = RecordReader.idProblem(percentDecoded(raw.group(2)));
            return problem == null ? null : ApiException.badRequest("INVALID_REQUEST", problem + ".");
        } catch (ApiException refusal) {
            return refusal;
        }
    }

    /** A raw path segment decoded: {@code %XX} escapes of UTF-8 bytes ('+' is itself). */
    static String percentDecoded(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
            if (low < 0) {
                throw ApiException.badRequest("INVALID_REQUEST", "The path is not percent-encoded.");
            }
            bytes.write(high * 16 + low);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("INVALID_REQUEST", "The path's escapes are not UTF-8.");
        }
    }

    /** {@code q} folded as the index folds, or null for none. */
    private static String foldedQuery(ServerRequest request) {
        String q = request.query().first("q").orElse("");
        if (q.isEmpty()) {
            return null;
        }
        if (q.length() > OptionRecords.MAX_TEXT_LENGTH) {
            throw ApiException.badRequest(
                    "INVALID_REQUEST", "q is at most " + OptionRecords.MAX_TEXT_LENGTH + " characters.");
        }
        String folded = TextFolding.fold(q);
        if (folded.isEmpty()) {
            throw ApiException.badRequest("INVALID_REQUEST", "q must have a letter or digit.");
        }
        return folded;
    }

    /**
     * The body of a write, counted against the limit once its declared length passed; its deadline is the catalog
     * body timeout.
     */
    private InputStream requestBody(ServerRequest request, String what) {
        long length = request.headers().contentLength().orElse(-1);
        if (length > bodyLimit) {
            guard.refusedLength(request, length, bodyLimit);
            throw tooLarge();
        }
        if (!request.content().hasEntity() || length == 0) {
            throw ApiException.badRequest("INVALID_JSON", "The body is empty; " + what + ".");
        }
        guard.allowBody(request, bodyTimeout);
        return new Body(request.content().inputStream(), request);
    }

    /** An admitted caller, holding its tenant until the request is answered, and the catalog it names. */
    private record Target(Admitted admitted, CatalogRef ref) implements AutoCloseable {
        /** The tenant's default language: a record's {@code text} is in it, so no translation may name it. */
        String defaultLanguage() {
            return admitted.caller().tenant().defaultLanguage();
        }

        @Override
        public void close() {
            admitted.close();
        }
    }

    /** The catalog of the path, of the key's tenant: after authentication, so that nothing is told to strangers. */
    private Target target(ServerRequest request, ServerResponse response) {
        Admitted admitted = gatekeeper.admitSecret(request, response, KeyUse.CATALOGS);
        Tenant tenant = admitted.caller().tenant();
        String name = request.path().pathParameters().get("catalog");
        Matcher raw = CATALOG_PATH.matcher(request.path().absolute().rawPath());
        if (!raw.lookingAt() || !percentDecoded(raw.group(1)).equals(name)) {
            // Dot segments moved the path to another catalog than it names first: routed elsewhere than it reads.
            admitted.close();
            throw new ApiException(404, "NOT_FOUND", "No such endpoint.");
        }
        if (!tenant.catalogs().contains(name)) {
            admitted.close();
            throw new ApiException(
                    404,
                    "CATALOG_NOT_FOUND",
                    "This key's tenant declares no catalog of this name"
                            + " (catalogs are declared under 'catalogs' in tenant.yaml).");
        }
        return new Target(admitted, new CatalogRef(tenant.id(), name));
    }

    /**
     * The whole body, copied to a local file and checked there before any transaction starts: a write transaction
     * never waits on the client's network (see {@link CheckedRecords}).
     */
    private CheckedRecords checked(ServerRequest request, Target target) {
        RecordReader.Format format = format(request);
        InputStream body = requestBody(request, "send records as a JSON array or NDJSON");
        try {
            return CheckedRecords.spool(spool, format, json, body, target.defaultLanguage());
        } catch (RecordReader.MalformedBody e) {
            throw ApiException.badRequest("INVALID_JSON", e.getMessage() + " Nothing was applied.");
        } catch (IOException | UncheckedIOException e) {
            warnOfSpool(e);
            throw storageUnavailable();
        }
    }

    /**
     * Logs a body that could not be copied to the spool: every write answers 503 until an operator frees space, so it
     * is said at once, at most once a minute, as the store says a full disk.
     */
    private void warnOfSpool(Exception e) {
        int heldBack = spoolWarnings.admit(System.nanoTime());
        if (heldBack < 0) {
            return;
        }
        String problem = String.valueOf(e.getMessage());
        LOG.log(
                System.Logger.Level.WARNING,
                "A catalog write failed: its body could not be copied to " + spool.directory() + " ("
                        + (problem.contains("No space left") ? "the disk is full: " : "") + problem
                        + "). Writes of catalogs answer 503 STORAGE_UNAVAILABLE until it can be written"
                        + (heldBack > 0 ? "; " + heldBack + " more such failures since the last warning" : ""));
    }

    private static RecordReader.Format format(ServerRequest request) {
        HttpMediaType type = request.headers().contentType().orElse(null);
        if (type == null) {
            throw new ApiException(
                    415,
                    "UNSUPPORTED_MEDIA_TYPE",
                    "Send records as Content-Type: application/json (an array) or application/x-ndjson.");
        }
        String media = type.mediaType().type() + "/" + type.mediaType().subtype();
        if (media.equalsIgnoreCase("application/json")) {
            return RecordReader.Format.ARRAY;
        }
        if (media.equalsIgnoreCase(NDJSON)
                || media.equalsIgnoreCase("application/ndjson")
                || media.equalsIgnoreCase("application/jsonl")) {
            // The names other tools send NDJSON by (the JSON Lines and NDJSON specs', Typesense's import): one format.
            return RecordReader.Format.NDJSON;
        }
        throw new ApiException(
                415,
                "UNSUPPORTED_MEDIA_TYPE",
                "Send records as Content-Type: application/json (an array) or application/x-ndjson.");
    }

    /** Runs a store operation, turning what the store and the body can throw into the protocol's errors. */
    private <T> T stored(java.util.function.Supplier<T> operation, RecordReader records) {
        try {
            // The store's work and the index's (seconds for a large write) on a platform thread, not a carrier.
            return PlatformThreads.call(operation::get);
        } catch (StorageUnavailableException e) {
            throw storageUnavailable();
        } catch (CatalogChangedException e) {
            throw new ApiException(
                    409,
                    "CATALOG_CHANGED",
                    "The catalog was replaced while this write was being written, " + e.tries()
                            + " times; nothing of it was written. Send it again once the replaces are done.");
        } catch (InvalidRecordsException e) {
            // The store counts the records it was given; they are placed back where they stood in the body.
            throw invalid(
                    records == null
                            ? e.problems()
                            : e.problems().stream()
                                    .map(problem -> new InvalidRecordsException.Problem(
                                            records.positionOf(problem.index()), problem.reason()))
                                    .toList(),
                    e.problems().size(),
                    records == null ? null : records.format());
        }
    }

    /** {@code 503 STORAGE_UNAVAILABLE}; the error mapping adds {@code Retry-After}. */
    private static ApiException storageUnavailable() {
        return new ApiException(
                503,
                "STORAGE_UNAVAILABLE",
                "The catalog store is unavailable; nothing was" + " written. Retry in a few seconds.");
    }

    /**
     * Refuses a batch with bad records, listing with them the texts other stored ids keep, read without a write
     * transaction, so that one answer names every record to fix.
     */
    private void refuseWithConflicts(
            CatalogRef ref, CheckedRecords checked, RecordReader records, List<OptionRecord> batch) {
        TreeMap<Long, InvalidRecordsException.Problem> problems = new TreeMap<>();
        checked.problems().forEach(problem -> problems.put(problem.index(), problem));
        long total = checked.invalid();
        try {
            for (InvalidRecordsException.Problem conflict : catalogs.store().textConflicts(ref, batch)) {
                long position = records.positionOf(conflict.index());
                if (problems.putIfAbsent(position, new InvalidRecordsException.Problem(position, conflict.reason()))
                        == null) {
                    total++;
                }
            }
        } catch (StorageUnavailableException e) {
            // The records' own problems are enough to answer; the store reports conflicts once they are fixed.
        }
        throw invalid(List.copyOf(problems.values()), total, checked.format());
    }

    /** Refuses the write, before any transaction, when the check found any bad record. */
    private static void refuseProblems(CheckedRecords checked) {
        if (checked.invalid() > 0) {
            throw invalid(checked.problems(), checked.invalid(), checked.format());
        }
    }

    /** {@code 400 INVALID_RECORDS}, placed by NDJSON {@code lines} or by array index. */
    private static ApiException invalid(List<InvalidRecordsException.Problem> problems, boolean lines) {
        return invalid(problems, problems.size(), lines ? RecordReader.Format.NDJSON : RecordReader.Format.ARRAY);
    }

    /**
     * {@code 400 INVALID_RECORDS}: each refused record by its index (array) or line (NDJSON), and why.
     *
     * @param total how many records were refused, of which {@code problems} are the first
     */
    private static ApiException invalid(
            List<InvalidRecordsException.Problem> problems, long total, RecordReader.Format format) {
        boolean lines = format == RecordReader.Format.NDJSON;
        String at = lines ? "line" : "index";
        List<Map<String, Object>> details = new ArrayList<>();
        StringBuilder message = new StringBuilder(total == 1 ? "1 record is" : total + " records are")
                .append(" invalid; nothing was applied.");
        for (InvalidRecordsException.Problem problem :
                problems.subList(0, Math.min(problems.size(), RecordReader.MAX_LISTED_PROBLEMS))) {
            Map<String, Object> detail = new LinkedHashMap<>();
            long position = problem.index();
            detail.put(at, position);
            detail.put("reason", problem.reason());
            details.add(detail);
            message.append(' ')
                    .append(at)
                    .append(' ')
                    .append(position)
                    .append(": ")
                    .append(problem.reason());
            if (!problem.reason().endsWith("?") && !problem.reason().endsWith(".")) {
                message.append('.'); // a reason that asks (did you mean 'de'?) ends the sentence itself
            }
        }
        if (total > RecordReader.MAX_LISTED_PROBLEMS) {
            message.append(" (the first ")
                    .append(RecordReader.MAX_LISTED_PROBLEMS)
                    .append(" are listed)");
        }
        return new ApiException(400, "INVALID_RECORDS", message.toString(), details);
    }

    private static int limit(ServerRequest request) {
        String raw = request.query().first("limit").orElse(null);
        if (raw == null) {
            return DEFAULT_PAGE;
        }
        OptionalInt parsed = raw.matches("[0-9]{1,4}") ? OptionalInt.of(Integer.parseInt(raw)) : OptionalInt.empty();
        if (parsed.isEmpty() || parsed.getAsInt() < 1 || parsed.getAsInt() > MAX_PAGE) {
            throw ApiException.badRequest("INVALID_REQUEST", "limit is a whole number from 1 to " + MAX_PAGE + ".");
        }
        return parsed.getAsInt();
    }

    /** A cursor is the last id of the page before, opaque to clients. */
    static String cursorOf(String id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id.getBytes(StandardCharsets.UTF_8));
    }

    private static String cursorId(String cursor) {
        try {
            String id = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (RecordReader.idProblem(id) == null && cursorOf(id).equals(cursor)) {
                return id;
            }
        } catch (IllegalArgumentException e) {
            // not Base64: refused below
        }
        throw ApiException.badRequest("INVALID_REQUEST", "cursor is not one this server gave (use next_cursor).");
    }

    @FunctionalInterface
    private interface DataWriter {
        void write(JsonGenerator out) throws IOException;
    }

    private void send(ServerResponse response, Status status, DataWriter data) {
        sendData(response, status, out -> {
            out.writeStartObject();
            data.write(out);
            out.writeEndObject();
        });
    }

    /** {@code {"data": value}}, where {@code value} writes one whole JSON value. */
    private void sendData(ServerResponse response, Status status, DataWriter value) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(256);
        try (JsonGenerator out = json.getFactory().createGenerator(bytes)) {
            out.writeStartObject();
            out.writeFieldName("data");
            value.write(out);
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        response.status(status);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(Headers.NO_STORE);
        HeadRequests.send(response, bytes.toByteArray());
    }

    private ApiException tooLarge() {
        return new ApiException(
                413,
                "PAYLOAD_TOO_LARGE",
                "A catalog write is at most " + bodyLimit + " bytes;"
                        + " split it, or raise limits.catalog-body-bytes.");
    }

    /**
     * The request body, counted: past the limit it is a 413; a client that left or went silent past its deadline
     * surfaces as the routing's abort and timeout answers.
     */
    private final class Body extends InputStream {

        private final InputStream in;
        private final ServerRequest request;
        private long read;

        Body(InputStream in, ServerRequest request) {
            this.in = in;
            this.request = request;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n;
            try {
                n = in.read(buffer, offset, length);
            } catch (IOException
                    | UncheckedIOException
                    | DataReader.InsufficientDataAvailableException
                    | ServerConnectionException e) {
                if (guard.bodyTimedOut(request)) {
                    throw new ApiException(408, "REQUEST_TIMEOUT", "The body did not arrive in time.");
                }
                throw new JsonRequests.ClientAborted();
            } catch (RuntimeException e) {
                ApiException framing = JsonRequests.chunkFraming(e);
                throw framing != null ? framing : e;
            }
            if (n > 0) {
                guard.bodyProgress(request);
                read += n;
                if (read > bodyLimit) {
                    throw tooLarge();
                }
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
