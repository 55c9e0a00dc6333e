package dev.autocomplete.server.store;

/**
 * The database holds a component's schema at a newer version than this binary knows: a newer version of the
 * server wrote it. Nothing was changed; the server refuses to start rather than misread it (and this is not
 * {@link StorageUnavailableException}: waiting does not help).
 */
public final class NewerSchemaException extends RuntimeException {

    public NewerSchemaException(String database, String component, int stored, int known) {
        super(database + " holds version " + stored + " of the '" + component + "' schema, but this autocomplete "
                + "knows versions up to " + known + ": a newer autocomplete wrote it, and this one refuses to use it "
                + "(nothing was changed). Run the newer version again (roll forward), or restore the backup taken "
                + "before upgrading (docs/deployment.md, Upgrading and rolling back).");
    }
}
