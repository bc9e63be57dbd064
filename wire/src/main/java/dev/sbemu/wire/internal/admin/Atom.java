package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.BrokerException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.w3c.dom.Element;

/** The Atom envelope of the management protocol: request entries in, response entries and feeds out. */
final class Atom {
    private static final String CONTENT_TYPE = "application/xml";

    private Atom() {}

    /**
     * The description inside a request's {@code <entry><content>}: the single element in the Service Bus
     * namespace, which must be one of {@code expected} (e.g. {@code QueueDescription}).
     */
    static Element description(String body, Set<String> expected) {
        String what = String.join(" or ", new TreeSet<>(expected));
        if (body == null || body.isBlank()) {
            throw ManagementException.badRequest(
                    "The request has no body; expected an Atom entry holding a " + what + ".");
        }
        Element entry = Xml.parse(body);
        if (!Xml.is(entry, Xml.ATOM, "entry")) {
            throw ManagementException.badRequest(
                    "Expected an Atom <entry> holding a " + what + ", found " + Xml.name(entry) + ".");
        }
        Element content = Xml.children(entry).stream()
                .filter(e -> Xml.is(e, Xml.ATOM, "content"))
                .findFirst()
                .orElseThrow(() ->
                        ManagementException.badRequest("The Atom entry has no <content> holding a " + what + "."));
        List<Element> inside = Xml.children(content);
        if (inside.size() != 1) {
            throw ManagementException.badRequest(
                    "The Atom <content> must hold exactly one " + what + ", found " + inside.size() + " elements.");
        }
        Element description = inside.get(0);
        if (!Xml.SB.equals(description.getNamespaceURI()) || !expected.contains(description.getLocalName())) {
            throw ManagementException.badRequest(
                    "Expected a " + what + " in namespace " + Xml.SB + ", found " + Xml.name(description) + ".");
        }
        return description;
    }

    /** Writes one {@code <entry>} with its metadata and {@code content} inside {@code <content>}. */
    static void entry(
            XmlOut out,
            String self,
            String title,
            Instant published,
            Instant updated,
            String author,
            Consumer<XmlOut> content) {
        boolean root = out.depthIsZero();
        if (root) {
            out.startIn(Xml.ATOM, "entry");
        } else {
            out.start("entry");
        }
        out.element("id", self);
        out.start("title").attribute("type", "text").text(title).end();
        out.element("published", published);
        out.element("updated", updated);
        out.start("author").element("name", author).end();
        out.start("link").attribute("rel", "self").attribute("href", self).end();
        out.start("content").attribute("type", CONTENT_TYPE);
        content.accept(out);
        out.end();
        out.end();
    }

    /** A document holding one entry. */
    static String document(Consumer<XmlOut> entry) {
        XmlOut out = new XmlOut();
        entry.accept(out);
        return out.finish();
    }

    /**
     * A page of a list as a {@code <feed>}. Each entry is read from the core before anything is written;
     * an entity deleted since the names were listed is left out.
     *
     * @param entry reads one entity and returns the writer of its entry
     */
    static ManagementResponse feed(
            Site site,
            String title,
            String path,
            Paging paging,
            List<String> names,
            Function<String, Consumer<XmlOut>> entry) {
        List<Consumer<XmlOut>> entries = new ArrayList<>();
        for (String name : paging.page(names)) {
            try {
                entries.add(entry.apply(name));
            } catch (BrokerException.EntityNotFound deletedMeanwhile) {
                // listed, then deleted by another thread: the page simply holds one entry less
            }
        }
        XmlOut out = new XmlOut();
        startFeed(out, title, paging.self(site, path), paging.next(site, path, names.size()), site.now());
        entries.forEach(e -> e.accept(out));
        out.end();
        return ManagementResponse.feed(out.finish());
    }

    private static void startFeed(XmlOut out, String title, String self, String next, Instant updated) {
        out.startIn(Xml.ATOM, "feed");
        out.start("title").attribute("type", "text").text(title).end();
        out.element("id", self);
        out.element("updated", updated);
        out.start("link").attribute("rel", "self").attribute("href", self).end();
        if (next != null) {
            out.start("link").attribute("rel", "next").attribute("href", next).end();
        }
    }
}
