package dev.autocomplete.server.files;

/** How the server notices changed tenant files ({@code tenants.watch}). */
public enum WatchMode {
    /** File events, switching to polling when a test file's event does not arrive or events miss a change. */
    AUTO,
    /** File events with a slow safety look; never switches to polling on its own. */
    EVENTS,
    /** A look at every file once a second, for mounts that deliver no file events. */
    POLL
}
