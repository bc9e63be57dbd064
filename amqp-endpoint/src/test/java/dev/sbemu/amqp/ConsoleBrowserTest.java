package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SessionLock;
import dev.sbemu.core.config.NamespaceSettings;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import reactor.core.Disposable;

/**
 * The console in a real browser: headless Chromium through the system's chromedriver (Debian's {@code chromium} and
 * {@code chromium-driver}; {@code .ci/run} installs them). Skipped, saying so, when they are absent. With {@code
 * -Dsbemu.console.screenshots=<dir>} it writes its screenshots of the main views there (docs/guide/images).
 */
class ConsoleBrowserTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    /**
     * Selenium's own logger, kept referenced: warnings only that it has no DevTools (CDP) classes for this Chromium,
     * which WebDriver does not need.
     */
    private static final Logger SELENIUM = Logger.getLogger("org.openqa.selenium");

    static {
        SELENIUM.setLevel(Level.SEVERE);
    }

    @RegisterExtension
    // any key accepted, as the server's default: the page calls the control API without asking for a key (SEC-7)
    final EndpointExtension endpoint = EndpointExtension.standard().server(b -> b.acceptAnyKey());

    private WebDriver browser;

    @BeforeEach
    void openBrowser() {
        File chromium = executable("sbemu.chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser");
        File driver = executable("sbemu.chromedriver", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
        Assumptions.assumeTrue(
                chromium != null && driver != null,
                "ConsoleBrowserTest needs chromium and chromedriver (apt-get install chromium chromium-driver, or "
                        + "-Dsbemu.chromium=... -Dsbemu.chromedriver=...): skipped");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=1400,900",
                "--hide-scrollbars",
                "--force-device-scale-factor=1");
        ChromeDriverService service =
                new ChromeDriverService.Builder().usingDriverExecutable(driver).build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    @DisplayName("CON-5 the console shows a message expired into the dead-letter queue with its reason, moves the "
            + "clock, shows a session's holder and state, and purges an entity")
    void console(Namespace ns, Instant start) throws IOException {
        ns.createQueue(
                "orders",
                QueueOptions.builder()
                        .defaultMessageTimeToLive(Duration.ofHours(1))
                        .deadLetteringOnMessageExpiration(true)
                        .build());
        ns.createQueue("jobs", QueueOptions.builder().requiresSession(true).build());
        ns.createTopic("events");
        ns.createSubscription("events", "audit");
        ns.send(
                "orders",
                Message.builder()
                        .messageId("order-1")
                        .body("{\"order\":1}")
                        .contentType("application/json")
                        .timeToLive(Duration.ofMinutes(1))
                        .build());
        ns.schedule(
                "orders",
                Message.builder().messageId("order-2").body("{\"order\":2}").build(),
                start.plus(Duration.ofMinutes(10)));
        ns.send("orders", Message.builder().messageId("order-3").body("three").build());
        ns.send(
                "jobs",
                Message.builder().messageId("job-1").body("a").sessionId("s-1").build());
        ns.send(
                "jobs",
                Message.builder().messageId("job-2").body("b").sessionId("s-2").build());
        ns.clock().advance(Duration.ofMinutes(2)); // past order-1's time to live

        browser.get(endpoint.server().httpUrl() + "/__admin/console/");
        click("#live"); // no refresh every two seconds: the page changes only on the test's own clicks

        // the dead-letter queue shows the expired message with its reason
        click("[data-path='orders/$deadletterqueue']");
        String reason = waitFor(() -> textOf(cellOf("order-1", ".dl-reason")));
        assertTrue(reason.startsWith("TTLExpiredException"), reason);
        screenshot("console-dead-letter.png");

        // advancing the clock from the page activates the scheduled message
        click("[data-path='orders']");
        assertEquals("SCHEDULED", waitFor(() -> textOf(cellOf("order-2", ".state"))));
        WebElement duration = browser.findElement(By.id("advance-duration"));
        duration.clear();
        duration.sendKeys("PT10M");
        click("#advance-button");
        Instant advanced = start.plus(Duration.ofMinutes(12));
        waitFor(() -> text("#clock-now").equals(advanced.toString()) ? true : null);
        waitFor(() -> "ACTIVE".equals(textOf(cellOf("order-2", ".state"))) ? true : null);
        assertEquals(advanced, ns.clock().instant());
        screenshot("console-messages.png");

        // a session's holder and state (held from now: the clock moved past any earlier lock)
        SessionLock held = ns.acceptSession(EntityPath.queue("jobs"), "s-1", Duration.ZERO);
        ns.setSessionState(held, "step-2".getBytes(StandardCharsets.UTF_8));
        click("[data-path='jobs']");
        click(".tab[data-tab='sessions']");
        assertEquals(held.token().toString(), waitFor(() -> textOf(cellOf("#sessions", "s-1", ".holder"))));
        assertEquals("step-2", waitFor(() -> textOf(cellOf("#sessions", "s-1", ".session-state"))));
        assertEquals("(free)", waitFor(() -> textOf(cellOf("#sessions", "s-2", ".holder"))));
        screenshot("console-sessions.png");

        // purge empties the entity
        click("[data-path='orders']");
        click(".tab[data-tab='messages']");
        waitFor(() -> cellOf("order-3", ".state"));
        click("#purge-button");
        click("#purge-button"); // the second click confirms
        waitFor(() -> browser.findElement(By.id("messages-empty")).isDisplayed() ? true : null);
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        assertEquals(0, ns.runtimeInfo(EntityPath.queue("orders")).scheduledMessageCount());
    }

    @Test
    @DisplayName("CON-11 the console shows the connections and links, the next timers (and advances to the first), "
            + "adds, lists and cancels faults, follows the journal with its filters and switches namespaces")
    void trafficTimersFaultsJournalAndNamespaces(
            Namespace ns, Instant start, @EndpointExtension.ConnectionString String connectionString)
            throws IOException {
        ns.createQueue(
                "orders",
                QueueOptions.builder().lockDuration(Duration.ofSeconds(30)).build());
        ns.send(
                "orders",
                Message.builder()
                        .messageId("order-1")
                        .body("one")
                        .timeToLive(Duration.ofHours(1))
                        .build());
        ns.schedule(
                "orders",
                Message.builder().messageId("order-2").body("two").build(),
                start.plus(Duration.ofMinutes(10)));
        Namespace teamA = endpoint.server().addNamespace("team-a", NamespaceSettings.defaults());
        teamA.createQueue("team-a-jobs");
        ServiceBusClientBuilder clients = new ServiceBusClientBuilder().connectionString(connectionString);
        try (ServiceBusReceiverAsyncClient receiver = clients.receiver()
                .queueName("orders")
                .receiveMode(ServiceBusReceiveMode.PEEK_LOCK)
                .disableAutoComplete()
                .buildAsyncClient()) {
            List<ServiceBusReceivedMessage> received = new CopyOnWriteArrayList<>();
            Disposable receiving = receiver.receiveMessages().subscribe(received::add); // the link stays open
            try {
                await().atMost(BOUND).until(() -> received.size() == 1);
                browser.get(endpoint.server().httpUrl() + "/__admin/console/");
                click("#live");

                // the receiver's link: peek-lock, one unsettled delivery (the message it holds)
                click("#refresh-button");
                WebElement link = waitFor(() -> linkRow("orders", "receiver"));
                assertEquals(
                        "PEEK_LOCK", link.findElement(By.cssSelector(".mode")).getText());
                assertEquals("1", link.findElement(By.cssSelector(".unsettled")).getText());

                // the timers: the lock ends first, then the scheduled message activates, then order-1 expires
                List<String> kinds = waitFor(() -> {
                    List<String> shown = browser.findElements(By.cssSelector("#timers-table tr.timer-row")).stream()
                            .map(row -> row.getAttribute("data-kind"))
                            .toList();
                    return shown.size() == 3 ? shown : null;
                });
                assertEquals(List.of("LOCK_EXPIRY", "SCHEDULED_ACTIVATION", "MESSAGE_EXPIRY"), kinds);
                scrollTo("#panels");
                screenshot("console-traffic.png");
                click("#next-timer-button");
                waitFor(() -> text("#clock-now").equals(start.plusSeconds(30).toString()) ? true : null);
                assertEquals(start.plusSeconds(30), ns.clock().instant());

                // a fault added from the page acts, is listed with its count and is cancelled from the page
                click("#fault-form summary");
                browser.findElement(By.id("fault-entity")).sendKeys("orders");
                click("#fault-add");
                WebElement fault = waitFor(() -> first("#faults-table tr.fault-row"));
                assertEquals(
                        "failNext: next 1 SEND on orders, SERVICE_BUSY",
                        fault.findElement(By.cssSelector(".fault")).getText());
                assertThrows(BrokerException.ServiceBusy.class, () -> ns.send("orders", Message.ofText("refused")));
                click("#refresh-button");
                waitFor(() -> "1".equals(textOf(cellIn("#faults-table tr.fault-row", ".acted"))) ? true : null);
                click("#faults-table .cancel-fault");
                waitFor(() -> browser.findElement(By.id("faults-empty")).isDisplayed() ? true : null);

                // the journal: its lines say when things happen; filtered by event type on the server
                waitFor(() -> journalLines().stream().anyMatch(l -> l.contains("expires")) ? true : null);
                WebElement types = browser.findElement(By.id("journal-type"));
                types.sendKeys("SCHEDULED", Keys.TAB);
                List<String> scheduled = waitFor(() -> {
                    List<String> lines = journalLines();
                    return lines.size() == 1 ? lines : null;
                });
                assertTrue(
                        scheduled
                                .get(0)
                                .endsWith("SCHEDULED orders #2 id=order-2 (for " + start.plus(Duration.ofMinutes(10))
                                        + ")"),
                        scheduled.get(0));

                // the namespace picker points every view at the chosen namespace
                click("#namespace-picker");
                click("#namespace-picker option[value='team-a']");
                waitFor(() -> first("[data-path='team-a-jobs']"));
                assertTrue(browser.findElements(By.cssSelector("[data-path='orders']"))
                        .isEmpty());
                waitFor(() -> browser.findElement(By.id("connections-empty")).isDisplayed() ? true : null);
            } finally {
                receiving.dispose();
            }
        }
    }

    @Test
    @DisplayName("CON-12 with a Listen key the console shows the namespace and offers no action; with a Manage key it "
            + "offers them")
    void readOnlyWithAListenKey() throws Exception {
        Namespace keyed = Namespace.create();
        keyed.createQueue("orders");
        keyed.authorizationRules(List.of(AuthorizationRule.of("ListenOnly", "listen-key", AccessRight.LISTEN)));
        try (keyed;
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.builder(keyed)
                        .sharedAccessKey("root-key")
                        .start()) {
            String resource = "sb://127.0.0.1:" + server.port() + "/";
            Instant hour = Instant.now().plus(Duration.ofHours(1));
            browser.get(server.httpUrl() + "/__admin/console/");
            click("#live");
            WebElement key = browser.findElement(By.id("auth-key"));
            key.sendKeys(RightsOverAmqpTest.token(resource, "ListenOnly", "listen-key", hour), Keys.TAB);
            waitFor(() -> first("[data-path='orders']"));
            waitFor(() -> browser.findElement(By.id("readonly")).isDisplayed() ? true : null);
            for (String action : List.of(
                    "#advance-button", "#next-timer-button", "#freeze-button", "#faults-clear", "#fault-form")) {
                assertFalse(browser.findElement(By.cssSelector(action)).isDisplayed(), action);
            }
            click("[data-path='orders']");
            waitFor(() -> browser.findElement(By.id("messages-empty")).isDisplayed() ? true : null);
            assertFalse(browser.findElement(By.id("purge-button")).isDisplayed());

            key.clear();
            key.sendKeys(
                    RightsOverAmqpTest.token(resource, ServiceBusEmulatorServer.KEY_NAME, "root-key", hour), Keys.TAB);
            waitFor(() -> browser.findElement(By.id("advance-button")).isDisplayed() ? true : null);
            assertFalse(browser.findElement(By.id("readonly")).isDisplayed());
        }
    }

    // ---- the page -----------------------------------------------------------------------------------------------

    /** Clicks the first element {@code css} finds once it is shown (again, should the page redraw it meanwhile). */
    private void click(String css) {
        waitFor(() -> {
            List<WebElement> found = browser.findElements(By.cssSelector(css));
            if (found.isEmpty() || !found.get(0).isDisplayed()) {
                return null;
            }
            found.get(0).click();
            return true;
        });
    }

    /** The cell {@code css} of the message row whose message id is {@code messageId}, or null while there is none. */
    private WebElement cellOf(String messageId, String css) {
        for (WebElement row : browser.findElements(By.cssSelector("#messages tr.message-row"))) {
            List<WebElement> cells = row.findElements(By.tagName("td"));
            if (cells.size() > 1 && cells.get(1).getText().equals(messageId)) {
                return row.findElement(By.cssSelector(css));
            }
        }
        return null;
    }

    /** The cell {@code css} of the row of {@code table} whose first cell is {@code firstCell}, or null. */
    private WebElement cellOf(String table, String firstCell, String css) {
        for (WebElement row : browser.findElements(By.cssSelector(table + " tbody tr"))) {
            List<WebElement> cells = row.findElements(By.tagName("td"));
            if (!cells.isEmpty() && cells.get(0).getText().equals(firstCell)) {
                return row.findElement(By.cssSelector(css));
            }
        }
        return null;
    }

    /** The first element {@code css} finds, or null. */
    private WebElement first(String css) {
        List<WebElement> found = browser.findElements(By.cssSelector(css));
        return found.isEmpty() ? null : found.get(0);
    }

    /** The element {@code css} inside the first {@code row}, or null. */
    private WebElement cellIn(String row, String css) {
        WebElement found = first(row);
        return found == null ? null : found.findElement(By.cssSelector(css));
    }

    /** The link row of {@code address} in the role {@code role}, or null. */
    private WebElement linkRow(String address, String role) {
        for (WebElement row : browser.findElements(By.cssSelector("#connections tr.link-row"))) {
            if (address.equals(row.getAttribute("data-address"))
                    && role.equals(row.findElement(By.cssSelector(".role")).getText())) {
                return row;
            }
        }
        return null;
    }

    private List<String> journalLines() {
        return browser.findElements(By.cssSelector("#journal-events li")).stream()
                .map(WebElement::getText)
                .toList();
    }

    private void scrollTo(String css) {
        ((JavascriptExecutor) browser).executeScript("document.querySelector(arguments[0]).scrollIntoView()", css);
    }

    private String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }

    private static String textOf(WebElement element) {
        return element == null ? null : element.getText();
    }

    /** Waits, up to a generous bound, until {@code condition} yields non-null (the page re-renders as it goes). */
    private <T> T waitFor(Supplier<T> condition) {
        try {
            return await().atMost(BOUND)
                    .ignoreExceptionsInstanceOf(StaleElementReferenceException.class)
                    .until(condition::get, Objects::nonNull);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "The console did not show what was expected; its status line: '" + text("#status") + "'", e);
        }
    }

    private void screenshot(String name) throws IOException {
        String dir = System.getProperty("sbemu.console.screenshots");
        if (dir == null || dir.isBlank()) {
            return;
        }
        waitFor(() -> browser.findElement(By.id("status")).getText().isEmpty() ? true : null);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Path target = Path.of(dir).resolve(name);
        Files.createDirectories(target.getParent());
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }

    private static File executable(String property, String... candidates) {
        String given = System.getProperty(property);
        for (String path : given != null ? new String[] {given} : candidates) {
            File file = new File(path);
            if (file.canExecute()) {
                return file;
            }
        }
        return null;
    }
}
