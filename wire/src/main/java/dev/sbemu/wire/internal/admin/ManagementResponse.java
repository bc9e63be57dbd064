package dev.sbemu.wire.internal.admin;

/**
 * One management response, independent of the HTTP stack that will carry it.
 *
 * @param status the HTTP status
 * @param contentType the body's media type, or null when there is no body
 * @param body the body, empty when there is none
 */
public record ManagementResponse(int status, String contentType, String body) {
    private static final String ENTRY = "application/atom+xml;type=entry;charset=utf-8";
    private static final String FEED = "application/atom+xml;type=feed;charset=utf-8";
    private static final String ERROR = "application/xml; charset=utf-8";

    static ManagementResponse entry(int status, String xml) {
        return new ManagementResponse(status, ENTRY, xml);
    }

    static ManagementResponse feed(String xml) {
        return new ManagementResponse(200, FEED, xml);
    }

    /** 200 without a body (deletes). */
    static ManagementResponse ok() {
        return new ManagementResponse(200, null, "");
    }

    /** An error as the service reports it: {@code <Error><Code>404</Code><Detail>...</Detail></Error>}. */
    public static ManagementResponse error(int status, String detail) {
        XmlOut out = new XmlOut();
        out.startIn("", "Error");
        out.element("Code", status);
        out.element("Detail", detail);
        out.end();
        return new ManagementResponse(status, ERROR, out.finish());
    }
}
