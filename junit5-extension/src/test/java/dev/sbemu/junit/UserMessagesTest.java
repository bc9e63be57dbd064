package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Messages meant for users explain themselves: no string literal in the main sources of any module cites a rule id
 * of {@code docs/spec/} (rule ids belong in comments and test names, where a reader of the repository can look
 * them up; a user reading an exception message has no spec at hand).
 */
class UserMessagesTest {
    private static final Pattern RULE = Pattern.compile("^- \\*\\*([A-Z]+-\\d+)\\*\\*", Pattern.MULTILINE);

    @Test
    @DisplayName("no string literal of the main sources cites a rule id of docs/spec/")
    void noRuleIdsInMessages() throws IOException {
        Path root = repositoryRoot();
        Set<String> ids = ruleIds(root);
        assertTrue(ids.size() > 50, "docs/spec/ defines rules: " + ids.size());
        Pattern cited = Pattern.compile("\\b(" + String.join("|", ids) + ")\\b");
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file :
                    files.filter(UserMessagesTest::isMainSource).sorted().toList()) {
                for (Literal literal : literals(Files.readString(file))) {
                    if (cited.matcher(literal.text()).find()) {
                        offenders.add(root.relativize(file) + ":" + literal.line() + ": \"" + literal.text() + "\"");
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    @DisplayName("the scanner finds literals (also text blocks) and skips comments and char literals")
    void scannerFindsLiterals() {
        String source =
                "// \"TTL-1 in a comment\"\nclass A { /* \"TTL-2\" */ char c = '\"'; String s = \"a \\\"TTL-3\\\"\";\n"
                        + "String t = \"\"\"\n  TTL-4\n  \"\"\"; }";
        List<String> texts = literals(source).stream().map(Literal::text).toList();
        assertEquals(List.of("a \\\"TTL-3\\\"", "\n  TTL-4\n  "), texts);
        assertFalse(texts.stream().anyMatch(t -> t.contains("TTL-1") || t.contains("TTL-2")));
    }

    private static boolean isMainSource(Path file) {
        String path = file.toString().replace('\\', '/');
        return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/");
    }

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docs/spec/README.md"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "docs/spec/README.md not found above " + Path.of("").toAbsolutePath());
    }

    private static Set<String> ruleIds(Path root) {
        try (Stream<Path> pages = Files.walk(root.resolve("docs/spec"))) {
            Set<String> ids = new TreeSet<>();
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
                Matcher m = RULE.matcher(Files.readString(page));
                while (m.find()) {
                    ids.add(m.group(1));
                }
            }
            return ids;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record Literal(int line, String text) {}

    /** The string literals and text blocks of Java source, outside comments. */
    static List<Literal> literals(String s) {
        List<Literal> found = new ArrayList<>();
        int line = 1;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (s.startsWith("//", i)) {
                i = s.indexOf('\n', i);
                i = i < 0 ? s.length() : i;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                line += count(s, i, end);
                i = end;
            } else if (c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != '\'') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? s.length() : end;
                found.add(new Literal(line, s.substring(s.indexOf('\n', i), end)));
                line += count(s, i, end);
                i = end + 3;
            } else if (c == '"') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != '"' && s.charAt(j) != '\n') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                found.add(new Literal(line, s.substring(i + 1, Math.min(j, s.length()))));
                i = j + 1;
            } else {
                i++;
            }
        }
        return found;
    }

    private static int count(String s, int from, int to) {
        int n = 0;
        for (int k = from; k < to; k++) {
            n += s.charAt(k) == '\n' ? 1 : 0;
        }
        return n;
    }
}
