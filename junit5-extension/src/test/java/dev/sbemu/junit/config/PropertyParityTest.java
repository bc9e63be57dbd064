package dev.sbemu.junit.config;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.Tier;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.config.EmulatorConfig;
import dev.sbemu.core.config.Topology;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import dev.sbemu.junit.internal.AnnotationTopology;
import dev.sbemu.sdk.AdministrationClients;
import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every property of {@link QueueOptions}, {@link TopicOptions} and {@link SubscriptionOptions} (their record
 * components) can be declared in each form that declares entities: the {@code @Queue}/{@code @Topic}/{@code
 * @Subscription} annotations, Microsoft's Config.json, and the administration client's XML descriptions (written
 * and read back). Each check sets one property to a value other than its default and looks for that value on the
 * other side, so a property a form forgets fails here, naming the form and the property. A property with no
 * counterpart in a form is listed below with the reason.
 */
class PropertyParityTest {
    private static final List<Class<? extends Record>> OPTIONS =
            List.of(QueueOptions.class, TopicOptions.class, SubscriptionOptions.class);

    private static final String NO_KEYS = "shared access keys: the emulator checks no credentials, so a test "
            + "declares none; the administration client stores them (LIM-4)";
    private static final String NOT_IN_FORMAT = "Microsoft's Config.json format has no such key (CFG-1: the file "
            + "is the Docker emulator's, which does not support the property)";

    /** Properties the annotations do not declare, and why. */
    private static final Map<String, String> NOT_IN_ANNOTATIONS = Map.of(
            "QueueOptions.authorizationRules", NO_KEYS,
            "TopicOptions.authorizationRules", NO_KEYS);

    /** Properties Config.json does not declare, and why. */
    private static final Map<String, String> NOT_IN_CONFIG_JSON = Map.ofEntries(
            entry("QueueOptions.autoDeleteOnIdle", NOT_IN_FORMAT),
            entry("QueueOptions.maxSizeInMegabytes", NOT_IN_FORMAT),
            entry("QueueOptions.status", NOT_IN_FORMAT),
            entry("QueueOptions.enablePartitioning", NOT_IN_FORMAT),
            entry("QueueOptions.enableBatchedOperations", NOT_IN_FORMAT),
            entry("QueueOptions.maxMessageSizeInKilobytes", NOT_IN_FORMAT),
            entry("QueueOptions.userMetadata", NOT_IN_FORMAT),
            entry("QueueOptions.authorizationRules", NO_KEYS),
            entry("TopicOptions.autoDeleteOnIdle", NOT_IN_FORMAT),
            entry("TopicOptions.maxSizeInMegabytes", NOT_IN_FORMAT),
            entry("TopicOptions.status", NOT_IN_FORMAT),
            entry("TopicOptions.enablePartitioning", NOT_IN_FORMAT),
            entry("TopicOptions.enableBatchedOperations", NOT_IN_FORMAT),
            entry("TopicOptions.supportOrdering", NOT_IN_FORMAT),
            entry("TopicOptions.maxMessageSizeInKilobytes", NOT_IN_FORMAT),
            entry("TopicOptions.userMetadata", NOT_IN_FORMAT),
            entry("TopicOptions.authorizationRules", NO_KEYS),
            entry("SubscriptionOptions.deadLetteringOnFilterEvaluationExceptions", NOT_IN_FORMAT),
            entry("SubscriptionOptions.autoDeleteOnIdle", NOT_IN_FORMAT),
            entry("SubscriptionOptions.status", NOT_IN_FORMAT),
            entry("SubscriptionOptions.enableBatchedOperations", NOT_IN_FORMAT),
            entry("SubscriptionOptions.userMetadata", NOT_IN_FORMAT));

    /** Annotation attributes that declare structure, not a property. */
    private static final Set<String> STRUCTURE = Set.of("name", "subscriptions", "rules");

    @Test
    @DisplayName("every options property has a @Queue/@Topic/@Subscription attribute that sets it, and every "
            + "attribute is a property")
    void annotations() {
        List<String> problems = new ArrayList<>();
        for (Class<? extends Record> options : OPTIONS) {
            Class<? extends Annotation> annotation = annotationOf(options);
            Set<String> components = Arrays.stream(options.getRecordComponents())
                    .map(RecordComponent::getName)
                    .collect(Collectors.toSet());
            for (Method attribute : annotation.getDeclaredMethods()) {
                if (!STRUCTURE.contains(attribute.getName()) && !components.contains(attribute.getName())) {
                    problems.add("@" + annotation.getSimpleName() + "." + attribute.getName() + " is no property of "
                            + options.getSimpleName());
                }
            }
            for (RecordComponent c : options.getRecordComponents()) {
                if (!NOT_IN_ANNOTATIONS.containsKey(key(c))) {
                    check(problems, c, "@" + annotation.getSimpleName(), () -> fromAnnotation(annotation, c));
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    @DisplayName("every options property is read from Config.json under its key, unless the format has none")
    void configJson() {
        List<String> problems = new ArrayList<>();
        for (Class<? extends Record> options : OPTIONS) {
            for (RecordComponent c : options.getRecordComponents()) {
                if (!NOT_IN_CONFIG_JSON.containsKey(key(c))) {
                    check(problems, c, "Config.json", () -> fromConfigJson(c));
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    @DisplayName("every options property survives the administration client's XML: written by a GET, read by a PUT")
    void adminXml() {
        List<String> problems = new ArrayList<>();
        for (Class<? extends Record> options : OPTIONS) {
            for (RecordComponent c : options.getRecordComponents()) {
                check(problems, c, "the admin XML", () -> throughAdminXml(c));
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    @DisplayName("the not-applicable lists name only existing properties")
    void listsAreCurrent() {
        Set<String> all = OPTIONS.stream()
                .flatMap(o -> Arrays.stream(o.getRecordComponents()))
                .map(PropertyParityTest::key)
                .collect(Collectors.toSet());
        for (Map<String, String> list : List.of(NOT_IN_ANNOTATIONS, NOT_IN_CONFIG_JSON)) {
            assertEquals(
                    Set.of(),
                    list.keySet().stream().filter(k -> !all.contains(k)).collect(Collectors.toSet()));
        }
    }

    // ---- the three forms --------------------------------------------------------------------------------------

    private interface Read {
        Object value() throws Exception;
    }

    /** Adds a problem unless reading {@code c} through the form gives its sample value. */
    private static void check(List<String> problems, RecordComponent c, String form, Read read) {
        Object expected = sample(c);
        try {
            Object actual = read.value();
            if (!Objects.equals(expected, actual)) {
                problems.add(form + " does not carry " + key(c) + ": set to " + expected + ", read back " + actual);
            }
        } catch (Exception | AssertionError e) {
            problems.add(form + " does not carry " + key(c) + ": " + e);
        }
    }

    private static Object fromAnnotation(Class<? extends Annotation> type, RecordComponent c) throws Exception {
        Method attribute;
        try {
            attribute = type.getMethod(c.getName());
        } catch (NoSuchMethodException e) {
            throw new AssertionError("no attribute " + c.getName());
        }
        Map<String, Object> values = Map.of("name", "e", c.getName(), annotationValue(sample(c), attribute));
        ServiceBusEmulator declaration = switch (type.getSimpleName()) {
            case "Queue" ->
                annotation(ServiceBusEmulator.class, Map.of("queues", new Queue[] {annotation(Queue.class, values)}));
            case "Topic" ->
                annotation(ServiceBusEmulator.class, Map.of("topics", new Topic[] {annotation(Topic.class, values)}));
            default ->
                annotation(ServiceBusEmulator.class, Map.of("topics", new Topic[] {
                    annotation(Topic.class, Map.of("name", "t", "subscriptions", new Subscription[] {
                        annotation(Subscription.class, values)
                    }))
                }));
        };
        return valueOf(c, optionsIn(AnnotationTopology.of(declaration, "parity")));
    }

    private static Object fromConfigJson(RecordComponent c) throws Exception {
        String properties =
                "\"Properties\": { \"" + Character.toUpperCase(c.getName().charAt(0))
                        + c.getName().substring(1) + "\": " + json(sample(c)) + " }";
        String entities = switch (c.getDeclaringRecord().getSimpleName()) {
            case "QueueOptions" -> "\"Queues\": [ { \"Name\": \"e\", " + properties + " } ]";
            case "TopicOptions" -> "\"Topics\": [ { \"Name\": \"e\", " + properties + " } ]";
            default ->
                "\"Topics\": [ { \"Name\": \"t\", \"Subscriptions\": [ { \"Name\": \"e\", " + properties + " } ] } ]";
        };
        EmulatorConfig config = EmulatorConfig.parse(
                ("{ \"UserConfig\": { \"Namespaces\": [ { \"Name\": \"ns\", " + entities + " } ] } }")
                        .getBytes(StandardCharsets.UTF_8),
                "parity.json");
        if (!config.warnings().isEmpty()) {
            throw new AssertionError(String.join("; ", config.warnings()));
        }
        return valueOf(c, optionsIn(config.topology()));
    }

    /**
     * Creates entity {@code a} with the sample value, GETs its description, PUTs that description back as
     * entity {@code b} (the response's read-only elements are accepted on input), and reads {@code b}'s value.
     */
    private static Object throughAdminXml(RecordComponent c) throws Exception {
        Object options = withSample(c);
        try (Namespace namespace = Namespace.builder().tier(Tier.PREMIUM).build()) {
            namespace.createQueue("target");
            HttpClient http = AdministrationClients.httpClient(namespace);
            String kind = c.getDeclaringRecord().getSimpleName();
            String a;
            String b;
            switch (kind) {
                case "QueueOptions" -> {
                    namespace.createQueue("a", (QueueOptions) options);
                    a = "a";
                    b = "b";
                }
                case "TopicOptions" -> {
                    namespace.createTopic("a", (TopicOptions) options);
                    a = "a";
                    b = "b";
                }
                default -> {
                    namespace.createTopic("t");
                    namespace.createSubscription("t", "a", (SubscriptionOptions) options);
                    a = "t/Subscriptions/a";
                    b = "t/Subscriptions/b";
                }
            }
            String description = send(http, new HttpRequest(HttpMethod.GET, url(a)), 200);
            send(
                    http,
                    new HttpRequest(HttpMethod.PUT, url(b))
                            .setBody(description)
                            .setHeader(HttpHeaderName.CONTENT_TYPE, "application/atom+xml"),
                    201);
            Object read = switch (kind) {
                case "QueueOptions" -> namespace.getQueue("b");
                case "TopicOptions" -> namespace.getTopic("b");
                default -> namespace.getSubscription("t", "b");
            };
            return valueOf(c, read);
        }
    }

    private static String url(String path) {
        return "https://" + AdministrationClients.HOST + "/" + path + "?api-version=2021-05";
    }

    private static String send(HttpClient http, HttpRequest request, int expectedStatus) {
        try (HttpResponse response = http.sendSync(request, Context.NONE)) {
            String body = response.getBodyAsBinaryData().toString();
            if (response.getStatusCode() != expectedStatus) {
                throw new AssertionError(request.getHttpMethod() + " " + request.getUrl() + ": "
                        + response.getStatusCode() + " " + body);
            }
            return body;
        }
    }

    // ---- values -----------------------------------------------------------------------------------------------

    /** A valid value other than the builder's default, for a component of the options records. */
    private static Object sample(RecordComponent c) {
        Class<?> type = c.getType();
        Object value;
        if (type == Duration.class) {
            value = Duration.ofMinutes(5);
        } else if (type == int.class) {
            value = 3;
        } else if (type == long.class || type == Long.class) {
            value = 2048L;
        } else if (type == boolean.class) {
            value = !(Boolean) valueOf(c, defaults(c.getDeclaringRecord()));
        } else if (type == EntityStatus.class) {
            value = EntityStatus.DISABLED;
        } else if (type == String.class) {
            value = "target";
        } else if (c.getName().equals("authorizationRules")) {
            value = List.of(new AuthorizationRule(
                    "listener",
                    "cHJpbWFyeQ==",
                    "c2Vjb25kYXJ5",
                    EnumSet.of(AuthorizationRule.AccessRight.LISTEN),
                    Instant.parse("2026-01-01T00:00:00Z"),
                    Instant.parse("2026-01-02T00:00:00Z")));
        } else {
            throw new AssertionError("no sample value for " + key(c) + " (" + type + "): add one to this test");
        }
        if (value.equals(valueOf(c, defaults(c.getDeclaringRecord())))) {
            throw new AssertionError("the sample value of " + key(c) + " is its default: pick another");
        }
        return value;
    }

    private static Object annotationValue(Object sample, Method attribute) {
        Class<?> type = attribute.getReturnType();
        if (type == String.class) {
            return sample.toString();
        }
        if (type.isArray()) {
            Object array = Array.newInstance(type.getComponentType(), 1);
            Array.set(array, 0, sample);
            return array;
        }
        return sample;
    }

    private static String json(Object sample) {
        return sample instanceof Boolean || sample instanceof Number ? sample.toString() : "\"" + sample + "\"";
    }

    /** The options with {@code c} set to its sample, through the options builder. */
    private static Object withSample(RecordComponent c) throws Exception {
        Object builder = c.getDeclaringRecord().getMethod("builder").invoke(null);
        builder.getClass().getMethod(c.getName(), c.getType()).invoke(builder, sample(c));
        return builder.getClass().getMethod("build").invoke(builder);
    }

    private static Object defaults(Class<?> options) {
        try {
            return options.getMethod("defaults").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Object valueOf(RecordComponent c, Object options) {
        try {
            return c.getAccessor().invoke(options);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Object optionsIn(Topology topology) {
        if (!topology.queues().isEmpty()) {
            return topology.queues().get(0).options();
        }
        Topology.TopicSpec topic = topology.topics().get(0);
        return topic.subscriptions().isEmpty()
                ? topic.options()
                : topic.subscriptions().get(0).options();
    }

    private static Class<? extends Annotation> annotationOf(Class<?> options) {
        return options == QueueOptions.class
                ? Queue.class
                : options == TopicOptions.class ? Topic.class : Subscription.class;
    }

    private static String key(RecordComponent c) {
        return c.getDeclaringRecord().getSimpleName() + "." + c.getName();
    }

    /** An instance of {@code type} with {@code values}, the other attributes at their defaults. */
    private static <A extends Annotation> A annotation(Class<A> type, Map<String, Object> values) {
        Map<String, Object> all = new HashMap<>(values);
        return type.cast(Proxy.newProxyInstance(
                type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> switch (method.getName()) {
                    case "annotationType" -> type;
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "@" + type.getSimpleName() + all;
                    default -> all.containsKey(method.getName()) ? all.get(method.getName()) : method.getDefaultValue();
                }));
    }
}
