package dev.sbemu.server;

/** A bad option, environment variable or Config.json: the server prints the message on one line and exits with 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the problem and what is allowed */
    public UsageException(String message) {
        super(message);
    }
}
