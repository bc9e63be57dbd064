package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.SessionLock;
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
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

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
