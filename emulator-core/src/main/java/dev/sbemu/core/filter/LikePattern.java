package dev.sbemu.core.filter;

import java.util.Arrays;

/**
 * A compiled {@code LIKE} pattern: {@code %} matches any run of characters, {@code _} exactly one,
 * and the optional escape character makes the next character literal. Matching is case-sensitive
 * and anchored: the whole value must match (SPEC RUL-6).
 */
final class LikePattern {

    private static final int ANY_RUN = -1;
    private static final int ANY_ONE = -2;

    /** Literal characters as their code (0..65535), or {@link #ANY_RUN} / {@link #ANY_ONE}. */
    private final int[] elements;

    private LikePattern(int[] elements) {
        this.elements = elements;
    }

    /**
     * Compiles a pattern.
     *
     * @param pattern the pattern
     * @param escape the escape character, or null for none
     * @return the pattern, or null when it ends with an unused escape character
     */
    static LikePattern compile(String pattern, Character escape) {
        int[] elements = new int[pattern.length()];
        int count = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape) {
                if (++i == pattern.length()) {
                    return null;
                }
                elements[count++] = pattern.charAt(i);
            } else if (c == '%') {
                if (count == 0 || elements[count - 1] != ANY_RUN) {
                    elements[count++] = ANY_RUN;
                }
            } else if (c == '_') {
                elements[count++] = ANY_ONE;
            } else {
                elements[count++] = c;
            }
        }
        return new LikePattern(Arrays.copyOf(elements, count));
    }

    /** Greedy matching with backtracking to the last {@code %}: O(value × pattern) at worst. */
    boolean matches(String value) {
        int v = 0;
        int p = 0;
        int lastRun = -1;
        int resumeAt = 0;
        while (v < value.length()) {
            if (p < elements.length && (elements[p] == ANY_ONE || elements[p] == value.charAt(v))) {
                v++;
                p++;
            } else if (p < elements.length && elements[p] == ANY_RUN) {
                lastRun = p++;
                resumeAt = v;
            } else if (lastRun >= 0) {
                p = lastRun + 1;
                v = ++resumeAt;
            } else {
                return false;
            }
        }
        while (p < elements.length && elements[p] == ANY_RUN) {
            p++;
        }
        return p == elements.length;
    }
}
