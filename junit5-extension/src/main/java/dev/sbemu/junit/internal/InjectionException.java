package dev.sbemu.junit.internal;

/** A parameter or field that cannot be injected; the message says which and why. */
public final class InjectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InjectionException(String message) {
        super(message);
    }

    public InjectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
