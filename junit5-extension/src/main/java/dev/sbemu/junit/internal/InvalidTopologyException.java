package dev.sbemu.junit.internal;

/** A declared entity the emulator cannot create; the message names where it was declared and why. */
public final class InvalidTopologyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidTopologyException(String message, Throwable cause) {
        super(message, cause);
    }

    public InvalidTopologyException(String message) {
        super(message);
    }
}
