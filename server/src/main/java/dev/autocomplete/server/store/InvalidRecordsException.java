package dev.autocomplete.server.store;

import java.util.List;

/**
 * Records the store refused as a whole, nothing of them applied (the API answers {@code 400 INVALID_RECORDS}).
 *
 * @see Problem
 */
public final class InvalidRecordsException extends RuntimeException {

    /**
     * One refused record.
     *
     * @param index the record's position in what was written, from 0 (the API reports it as an index, or as a
     *     line of NDJSON)
     * @param reason why, naming no secret
     */
    public record Problem(long index, String reason) {}

    private final List<Problem> problems;

    public InvalidRecordsException(List<Problem> problems) {
        super(problems.size() + " invalid record(s)");
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
