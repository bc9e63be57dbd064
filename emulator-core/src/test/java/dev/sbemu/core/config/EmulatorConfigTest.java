package dev.sbemu.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.Durations;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SharedAccessPolicy;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.config.Topology.FilterSpec;
import dev.sbemu.core.config.Topology.RuleSpec;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmulatorConfigTest {

    private static EmulatorConfig parse(String json) {
        return EmulatorConfig.parse(json.getBytes(StandardCharsets.UTF_8), "Config.json");
    }

    private static Namespace applied(String json) {
        Namespace namespace = Namespace.create();
        parse(json).applyTo(namespace);
        return namespace;
    }

    private static String queues(String queuesJson) {
        return "{ \"UserConfig\": { \"Namespaces\": [ { \"Name\": \"sbemulatorns\", \"Queues\": " + queuesJson
                + " } ] } }";
    }

    private static EmulatorConfigException failure(String json) {
        return assertThrows(EmulatorConfigException.class, () -> applied(json));
    }

    // ---- CFG-1 -------------------------------------------------------------------------------------------

    @Test
    @DisplayName(
            "CFG-1 queues, topics and subscriptions take the properties the file gives, under the emulator's names")
    void properties() {
        Namespace ns = Namespace.create();
        EmulatorConfig.load("classpath:config/no-rules.json").applyTo(ns);

        assertEquals(
                QueueOptions.builder()
                        .lockDuration(Duration.ofSeconds(30))
                        .maxDeliveryCount(3)
                        .build(),
                ns.getQueue("orders"));
        assertEquals(TopicOptions.defaults(), ns.getTopic("events"));
        assertEquals(
                List.of("audit", "billing"),
                ns.subscriptionNames("events").stream().sorted().toList());

        Topology sample =
                EmulatorConfig.load("classpath:config/microsoft-sample.json").topology();
        QueueOptions queue2 = sample.queues().get(1).options();
        assertEquals(
                QueueOptions.builder()
                        .deadLetteringOnMessageExpiration(true)
                        .defaultMessageTimeToLive(Duration.ofMinutes(10))
                        .duplicateDetectionHistoryTimeWindow(Duration.ofMinutes(5))
                        .forwardDeadLetteredMessagesTo("queue.1")
                        .lockDuration(Duration.ofSeconds(30))
                        .maxDeliveryCount(5)
                        .requiresDuplicateDetection(true)
                        .requiresSession(true)
                        .build(),
                queue2);
        assertEquals(
                SubscriptionOptions.builder().forwardTo("queue.1").build(),
                sample.topics().get(0).subscriptions().get(3).options());
    }

    @Test
    @DisplayName(
            "CFG-1 rules: a correlation filter with system keys and application properties, a SQL filter, an action")
    void rules() {
        Topology sample =
                EmulatorConfig.load("classpath:config/microsoft-sample.json").topology();
        var subscriptions = sample.topics().get(0).subscriptions();

        RuleSpec correlation = subscriptions.get(0).rules().get(0);
        assertEquals("app-prop-filter-1", correlation.name());
        assertEquals(
                new FilterSpec.Correlation(
                        "id1",
                        "msgid1",
                        "xyz",
                        "someQueue",
                        "subject1",
                        "session1",
                        "sessionId",
                        "application/text",
                        Map.of()),
                correlation.filter());
        assertEquals(
                new FilterSpec.Correlation(
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        Map.of("prop3", "value3", "priority", 5L, "urgent", true)),
                subscriptions.get(1).rules().get(0).filter());
        RuleSpec sql = subscriptions.get(2).rules().get(0);
        assertEquals(new FilterSpec.Sql("sys.MessageId = '123456' AND userProp1 = 'value1'"), sql.filter());
        assertEquals("SET sys.To = 'Entity'", sql.action());
        assertEquals(List.of(), subscriptions.get(3).rules(), "no Rules: the $Default rule");
    }

    @Test
    @DisplayName("CFG-1 any namespace name, and several namespaces, fill the one emulated namespace")
    void namespaces() {
        Namespace ns = applied("""
                { "UserConfig": { "Namespaces": [
                    { "Name": "orders-ns", "Queues": [ { "Name": "a" } ] },
                    { "Name": "billing", "Topics": [ { "Name": "b" } ] } ] } }""");

        assertEquals(List.of("a"), ns.queueNames());
        assertEquals(List.of("b"), ns.topicNames());
    }

    @Test
    @DisplayName("CFG-2 Microsoft's own sample file (with its Logging key) loads without a warning")
    void sampleLoadsQuietly() {
        assertEquals(
                List.of(),
                EmulatorConfig.load("classpath:config/microsoft-sample.json").warnings());
    }

    @Test
    @DisplayName(
            "CFG-4 the loader needs only emulator-core and the JDK: Microsoft's sample loads and applies in a class "
                    + "loader that sees nothing else (no JUnit)")
    void loadsWithoutJUnit() throws Exception {
        URL coreClasses =
                EmulatorConfig.class.getProtectionDomain().getCodeSource().getLocation();
        byte[] sample;
        try (var in = getClass().getClassLoader().getResourceAsStream("config/microsoft-sample.json")) {
            sample = in.readAllBytes();
        }
        try (URLClassLoader coreOnly =
                new URLClassLoader(new URL[] {coreClasses}, ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> coreOnly.loadClass(Test.class.getName()));
            Class<?> config = coreOnly.loadClass(EmulatorConfig.class.getName());
            Class<?> namespaceType = coreOnly.loadClass(Namespace.class.getName());
            Object namespace = namespaceType.getMethod("create").invoke(null);
            Object loaded =
                    config.getMethod("parse", byte[].class, String.class).invoke(null, sample, "sample.json");
            config.getMethod("applyTo", namespaceType).invoke(loaded, namespace);

            assertEquals(
                    List.of("queue.1", "queue.2"),
                    namespaceType.getMethod("queueNames").invoke(namespace));
            assertEquals(
                    List.of("topic.1"), namespaceType.getMethod("topicNames").invoke(namespace));
            namespaceType.getMethod("close").invoke(namespace);
        }
    }

    @Test
    @DisplayName(
            "CFG-1 a subscription with Rules has exactly those rules; without Rules, or with none, it has $Default")
    void rulesApplied() {
        Namespace ns = Namespace.create();
        EmulatorConfig.load("classpath:config/microsoft-sample.json").applyTo(ns);
        Namespace noRules = Namespace.create();
        EmulatorConfig.load("classpath:config/no-rules.json").applyTo(noRules);

        assertEquals(
                List.of(new RuleDescription(
                        "sql-filter-1",
                        SqlFilter.parse("sys.MessageId = '123456' AND userProp1 = 'value1'"),
                        SqlRuleAction.parse("SET sys.To = 'Entity'"))),
                ns.listRules("topic.1", "subscription.3"));
        assertEquals(List.of("app-prop-filter-1"), ruleNames(ns, "subscription.1"));
        assertEquals(List.of(RuleDescription.DEFAULT_RULE_NAME), ruleNames(ns, "subscription.4"));
        assertEquals(List.of(RuleDescription.defaultRule()), noRules.listRules("events", "audit"));
        assertEquals(List.of(RuleDescription.defaultRule()), noRules.listRules("events", "billing"), "\"Rules\": []");
    }

    private static List<String> ruleNames(Namespace ns, String subscription) {
        return ns.listRules("topic.1", subscription).stream()
                .map(RuleDescription::name)
                .toList();
    }

    // ---- CFG-2 -------------------------------------------------------------------------------------------

    @Test
    @DisplayName("CFG-2 // comments, trailing commas, a byte-order mark, CRLF and tabs load")
    void untidyFiles() throws Exception {
        String text = "// topology\r\n{\r\n\t\"UserConfig\": {\r\n\t\t\"Namespaces\": [\r\n\t\t\t{ \"Name\": \"x\", "
                + "// the queues\r\n\t\t\t\"Queues\": [ { \"Name\": \"orders\", }, ], },\r\n\t\t],\r\n\t},\r\n}\r\n";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
        bytes.write(text.getBytes(StandardCharsets.UTF_8));

        Namespace ns = Namespace.create();
        EmulatorConfig config = EmulatorConfig.parse(bytes.toByteArray(), "Config.json");
        config.applyTo(ns);

        assertEquals(List.of("orders"), ns.queueNames());
        assertEquals(List.of(), config.warnings());
    }

    @Test
    @DisplayName("CFG-2 missing Queues, Topics, Properties, Rules and Logging keys, and empty arrays, are fine")
    void missingKeys() {
        Namespace ns = applied("""
                { "UserConfig": { "Namespaces": [
                    { "Name": "a" },
                    { "Name": "b", "Queues": [], "Topics": [] },
                    { "Name": "c", "Queues": [ { "Name": "q" } ],
                      "Topics": [ { "Name": "t", "Subscriptions": [ { "Name": "s" }, { "Name": "u", "Rules": [] } ] },
                                  { "Name": "v", "Subscriptions": [] } ] } ] } }""");

        assertEquals(QueueOptions.defaults(), ns.getQueue("q"));
        assertEquals(SubscriptionOptions.defaults(), ns.getSubscription("t", "s"));
        assertEquals(List.of(), ns.subscriptionNames("v"));
    }

    @Test
    @DisplayName("CFG-2 empty-string forward targets mean none")
    void emptyForwardTargets() {
        Namespace ns = applied(queues("[ { \"Name\": \"q\", \"Properties\": { \"ForwardTo\": \"\", "
                + "\"ForwardDeadLetteredMessagesTo\": \"\" } } ]"));

        assertNull(ns.getQueue("q").forwardTo());
        assertNull(ns.getQueue("q").forwardDeadLetteredMessagesTo());
    }

    @Test
    @DisplayName("CFG-2 unknown keys are ignored, each named in one warning line; Logging silently")
    void unknownKeys() {
        EmulatorConfig config = parse("""
                { "UserConfig": {
                    "Namespaces": [ { "Name": "x", "Region": "eu",
                        "Queues": [ { "Name": "q", "Properties": { "LockDuration": "PT30S", "EnableExpress": true } } ] } ],
                    "Logging": { "Type": "File" } },
                  "Version": 2 }""");

        assertEquals(
                List.of(
                        "Config.json: ignoring Version: not a key of the emulator's Config.json format here (known: UserConfig)",
                        "Config.json: ignoring UserConfig.Namespaces[0].Region: not a key of the emulator's Config.json "
                                + "format here (known: Name, Queues, Topics, AuthorizationRules, Limits)",
                        "Config.json: ignoring UserConfig.Namespaces[0].Queues[0].Properties.EnableExpress: not a key of the "
                                + "emulator's Config.json format here (known: DeadLetteringOnMessageExpiration, "
                                + "DefaultMessageTimeToLive, DuplicateDetectionHistoryTimeWindow, "
                                + "ForwardDeadLetteredMessagesTo, ForwardTo, LockDuration, MaxDeliveryCount, "
                                + "RequiresDuplicateDetection, RequiresSession)"),
                config.warnings());
    }

    @Test
    @DisplayName("SEC-9 AuthorizationRules on the namespace, a queue and a topic give shared access policies with "
            + "rights; they survive NamespaceSettings.of and start (a reset)")
    void authorizationRules() {
        Namespace ns = applied("""
                { "UserConfig": { "Namespaces": [ { "Name": "x",
                    "AuthorizationRules": [
                      { "KeyName": "SendOnly", "PrimaryKey": "k1", "Rights": ["Send"] },
                      { "KeyName": "Admin", "Rights": ["Manage", "Send", "Listen"] } ],
                    "Queues": [ { "Name": "q", "AuthorizationRules": [
                      { "KeyName": "QListen", "PrimaryKey": "k2", "SecondaryKey": "k3", "Rights": ["Listen"] } ] } ],
                    "Topics": [ { "Name": "t", "AuthorizationRules": [
                      { "KeyName": "TSend", "Rights": ["send"] } ] } ] } ] } }""");
        List<SharedAccessPolicy> policies = ns.sharedAccessPolicies();
        assertEquals(4, policies.size(), policies.toString());
        assertEquals("SendOnly", policies.get(0).keyName());
        assertNull(policies.get(0).entity());
        assertTrue(policies.get(0).grants(AccessRight.SEND));
        assertTrue(!policies.get(0).grants(AccessRight.LISTEN));
        assertTrue(policies.get(1).grants(AccessRight.LISTEN), "Manage implies Listen");
        assertEquals("q", policies.get(2).entity());
        assertEquals("k3", policies.get(2).secondaryKey());
        assertTrue(policies.get(2).reaches("q/$DeadLetterQueue"));
        assertTrue(!policies.get(2).reaches("qq"));
        assertEquals("t", policies.get(3).entity());
        assertTrue(policies.get(3).reaches("t/Subscriptions/s"));
        try (Namespace again = NamespaceSettings.of(ns).start()) {
            assertEquals(policies, again.sharedAccessPolicies());
        }
        ns.close();

        EmulatorConfigException noRight = assertThrows(EmulatorConfigException.class, () -> parse("""
                { "UserConfig": { "Namespaces": [ { "Name": "x",
                    "AuthorizationRules": [ { "KeyName": "K", "Rights": ["Read"] } ] } ] } }"""));
        assertTrue(noRight.getMessage().contains("Rights[0]"), noRight.getMessage());
    }

    @Test
    @DisplayName("CFG-2 an absent property takes the real service's default, not the Docker emulator's")
    void serviceDefaults() {
        Namespace ns = applied(queues("[ { \"Name\": \"q\", \"Properties\": { } } ]"));

        QueueOptions q = ns.getQueue("q");
        assertEquals(Duration.ofSeconds(60), q.lockDuration());
        assertEquals(10, q.maxDeliveryCount());
        assertEquals(Durations.MAX, q.defaultMessageTimeToLive(), "never, not the Docker emulator's 1 hour");
        assertEquals(Duration.ofSeconds(60), q.duplicateDetectionHistoryTimeWindow());
    }

    // ---- CFG-3 -------------------------------------------------------------------------------------------

    @Test
    @DisplayName("CFG-3 the Docker emulator's limits are not imposed, only the real service's")
    void noDockerLimits() {
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < 60; i++) {
            many.append(i == 0 ? "" : ",").append("{ \"Name\": \"q").append(i).append("\" }");
        }
        many.append(", { \"Name\": \"big\", \"Properties\": { \"DefaultMessageTimeToLive\": \"P14D\", "
                + "\"MaxDeliveryCount\": 100, \"DuplicateDetectionHistoryTimeWindow\": \"P1D\", "
                + "\"RequiresDuplicateDetection\": true } } ]");
        Namespace ns = applied(queues(many.toString()).replace("sbemulatorns", "my-own-namespace"));

        assertEquals(61, ns.queueNames().size());
        QueueOptions big = ns.getQueue("big");
        assertEquals(Duration.ofDays(14), big.defaultMessageTimeToLive());
        assertEquals(100, big.maxDeliveryCount());
        assertEquals(Duration.ofDays(1), big.duplicateDetectionHistoryTimeWindow());
    }

    @Test
    @DisplayName("CFG-3 a value the service rejects names the file, the JSON path, the value and what is allowed")
    void rejectedValue() {
        EmulatorConfigException e = failure(queues("[ { \"Name\": \"a\" }, { \"Name\": \"b\" }, "
                + "{ \"Name\": \"c\", \"Properties\": { \"LockDuration\": \"PT10M\" } } ]"));

        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[2].Properties.LockDuration: Invalid lockDuration "
                        + "'PT10M': must be between PT5S and PT5M.",
                e.getMessage());
    }

    @Test
    @DisplayName("CFG-3 malformed values name the path, the value and what is allowed")
    void malformedValues() {
        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[0].Properties.LockDuration is \"1 minute\": "
                        + "expected an ISO-8601 duration such as \"PT30S\", \"PT10M\", \"PT1H\" or \"P1D\"",
                failure(queues("[ { \"Name\": \"q\", \"Properties\": { \"LockDuration\": \"1 minute\" } } ]"))
                        .getMessage());
        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[0].Properties.MaxDeliveryCount is \"three\": "
                        + "expected a whole number",
                failure(queues("[ { \"Name\": \"q\", \"Properties\": { \"MaxDeliveryCount\": \"three\" } } ]"))
                        .getMessage());
        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[0].Properties.RequiresSession is 1: expected true "
                        + "or false",
                failure(queues("[ { \"Name\": \"q\", \"Properties\": { \"RequiresSession\": 1 } } ]"))
                        .getMessage());
        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[0].Name is missing or empty: every queue needs a "
                        + "Name",
                failure(queues("[ { \"Properties\": { } } ]")).getMessage());
        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[0].Properties.ForwardTo: Invalid forwardTo "
                        + "'nowhere': the destination must be an existing queue or topic.",
                failure(queues("[ { \"Name\": \"q\", \"Properties\": { \"ForwardTo\": \"nowhere\" } } ]"))
                        .getMessage());
        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Queues[1].Name: The messaging entity 'q' already exists.",
                failure(queues("[ { \"Name\": \"q\" }, { \"Name\": \"q\" } ]")).getMessage());
    }

    @Test
    @DisplayName("CFG-3 a malformed SQL filter names the rule's path, the expression and the syntax error")
    void malformedSql() {
        String json = """
                { "UserConfig": { "Namespaces": [ { "Name": "x", "Topics": [ { "Name": "t", "Subscriptions": [
                    { "Name": "s", "Rules": [ { "Name": "r", "Properties": { "FilterType": "Sql",
                        "SqlFilter": { "SqlExpression": "color = " } } } ] } ] } ] } ] } }""";

        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Topics[0].Subscriptions[0].Rules[0].Properties.SqlFilter"
                        + ".SqlExpression: 'color = ': Syntax error at position 8 at the end of the text: expected an expression",
                failure(json).getMessage());
    }

    @Test
    @DisplayName("CFG-3 a bad rule names its path")
    void badRule() {
        String json = """
                { "UserConfig": { "Namespaces": [ { "Name": "x", "Topics": [ { "Name": "t", "Subscriptions": [
                    { "Name": "s", "Rules": [ { "Name": "r", "Properties": { "FilterType": "Regex" } } ] } ] } ] } ] } }""";

        assertEquals(
                "Config.json: UserConfig.Namespaces[0].Topics[0].Subscriptions[0].Rules[0].Properties.FilterType "
                        + "is \"Regex\": FilterType must be \"Sql\" or \"Correlation\"",
                failure(json).getMessage());
    }

    @Test
    @DisplayName("CFG-3 malformed JSON names the file, line, column and where in the document")
    void malformedJson() {
        EmulatorConfigException e =
                failure("{ \"UserConfig\": { \"Namespaces\": [ { \"Name\": \"x\" \"Queues\": [] } ] } }");

        assertEquals(
                "Config.json: malformed JSON at line 1, column 49 (in UserConfig.Namespaces[0].Name): expected "
                        + "',' or '}' but found '\"Queues\"'",
                e.getMessage());
    }

    @Test
    @DisplayName(
            "CFG-3 a file past the JSON reader's limits (nesting, number or string length) names the file and the limit")
    void pastReaderLimits() {
        String prefix = "{ \"UserConfig\": { \"Namespaces\": [ { \"Name\": \"x\", \"Queues\": ";
        String nested = prefix + "[".repeat(1_001) + "]".repeat(1_001) + " } ] } }";
        String longNumber = prefix + "[ { \"Name\": \"q\", \"Properties\": { \"MaxDeliveryCount\": " + "1".repeat(1_001)
                + " } } ] } ] } }";
        String longString = prefix + "[ { \"Name\": \"" + "q".repeat(21_000_000) + "\" } ] } ] } }";
        for (String json : List.of(nested, longNumber, longString)) {
            EmulatorConfigException e = failure(json);
            assertTrue(
                    e.getMessage().startsWith("Config.json: not a Config.json the emulator can read"), e.getMessage());
            assertTrue(e.getMessage().contains("exceeds the maximum allowed"), e.getMessage());
        }
    }

    @Test
    @DisplayName("CFG-3 a file that is missing, or not a Config.json, says so")
    void missingFile(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("Config.json");
        assertEquals(
                missing + ": no such file (working directory " + Path.of("").toAbsolutePath() + ")",
                assertThrows(EmulatorConfigException.class, () -> EmulatorConfig.load(missing))
                        .getMessage());
        assertEquals(
                "classpath:nope/Config.json: not found on the class path (looked for resource " + "'nope/Config.json')",
                assertThrows(EmulatorConfigException.class, () -> EmulatorConfig.load("classpath:nope/Config.json"))
                        .getMessage());
        Files.writeString(missing, "{ \"Queues\": [] }");
        assertTrue(assertThrows(EmulatorConfigException.class, () -> EmulatorConfig.load(missing.toString()))
                .getMessage()
                .startsWith(missing + ": UserConfig is missing"));
    }
}
