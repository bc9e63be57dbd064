package dev.sbemu.core.config;

/**
 * A Config.json that cannot be loaded: unreadable, malformed beyond what Microsoft's emulator accepts, or
 * holding a value the real service rejects. The message names the file, the JSON path (such as
 * {@code UserConfig.Namespaces[0].Queues[2].Properties.LockDuration}), the value and what is allowed.
 */
public final class EmulatorConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmulatorConfigException(String message) {
        super(message);
    }

    public EmulatorConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
