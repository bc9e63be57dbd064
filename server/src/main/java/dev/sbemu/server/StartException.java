package dev.sbemu.server;

/** The server could not start although its options are valid (a port in use): it exits with 1. */
public final class StartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming what could not be done */
    public StartException(String message, Throwable cause) {
        super(message, cause);
    }
}
