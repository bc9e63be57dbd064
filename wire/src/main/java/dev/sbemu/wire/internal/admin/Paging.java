package dev.sbemu.wire.internal.admin;

import java.util.List;
import java.util.Map;

/**
 * {@code $skip} and {@code $top} of a list request. Pages hold at most {@value #MAX_TOP} entries; a
 * page that is not the last carries a {@code next} link with the following {@code $skip}.
 *
 * @param skip entries to skip
 * @param top the page size
 */
record Paging(int skip, int top) {
    static final int MAX_TOP = 100;

    static Paging of(Map<String, String> query) {
        int skip = (int) number(query, "$skip", 0, Integer.MAX_VALUE, 0);
        int top = (int) number(query, "$top", 1, Integer.MAX_VALUE, MAX_TOP);
        return new Paging(skip, Math.min(top, MAX_TOP));
    }

    private static long number(Map<String, String> query, String name, long min, long max, long absent) {
        String text = query.get(name);
        return text == null ? absent : XmlValues.integer("query parameter " + name, text, min, max);
    }

    <T> List<T> page(List<T> all) {
        int from = Math.min(skip, all.size());
        return all.subList(from, Math.min(all.size(), from + top));
    }

    /** The next page's URL, or null when this page reaches the end. */
    String next(Site site, String path, int total) {
        if ((long) skip + top >= total) {
            return null;
        }
        String url = site.url(path);
        return url + "&$skip=" + (skip + top) + "&$top=" + top;
    }

    /** This page's URL. */
    String self(Site site, String path) {
        return site.url(path) + "&$skip=" + skip + "&$top=" + top;
    }
}
