package dev.sbemu.wire.internal.admin;

/** A request the management endpoint refuses, with the HTTP status and the detail the client will see. */
final class ManagementException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    ManagementException(int status, String detail) {
        super(detail);
        this.status = status;
    }

    /** 400: the request is malformed or holds a value the service does not accept. */
    static ManagementException badRequest(String detail) {
        return new ManagementException(400, detail);
    }

    /** 404: no such resource. */
    static ManagementException notFound(String detail) {
        return new ManagementException(404, detail);
    }

    /** 501: a valid request the emulator does not implement. */
    static ManagementException notImplemented(String detail) {
        return new ManagementException(501, detail);
    }

    int status() {
        return status;
    }
}
