// The Azure SDK for JavaScript's administration client on the sbemu endpoint's one port (HTTP beside AMQP), and
// the endpoint's control API moving the clock. Run by dev.sbemu.amqp.NodeClientTest:
//
//   node admin-over-http.js <connection string>
//
// Protocol on stdout as service-bus-client.js: "@@sbemu STEP <name>", "@@sbemu DONE"; a failure exits with 1.
"use strict";

const assert = require("node:assert/strict");
const { ServiceBusClient, ServiceBusAdministrationClient } = require("@azure/service-bus");

const connectionString = process.argv[2];
if (!connectionString) {
  console.error("usage: node admin-over-http.js <connection string>");
  process.exit(2);
}
const QUEUE = "js-admin-queue";
// The endpoint's HTTP side is its AMQP host and port: sb://127.0.0.1:5672 -> http://127.0.0.1:5672
const httpBase = "http://" + connectionString.match(/Endpoint=sb:\/\/([^/;]*)/)[1];

function say(line) {
  process.stdout.write(`@@sbemu ${line}\n`);
}

// The administration client calls https:// on the connection string's host and port; the development emulator
// speaks plain HTTP there: one pipeline policy rewrites the scheme.
const emulatorHttp = {
  name: "emulator-http",
  sendRequest: (request, next) => {
    request.url = request.url.replace(/^https:/, "http:");
    request.allowInsecureConnection = true;
    return next(request);
  },
};

// With a key the control API wants a shared access signature of it, as the management API does.
function authorization() {
  const crypto = require("node:crypto");
  const keyName = connectionString.match(/SharedAccessKeyName=([^;]*)/)[1];
  const key = connectionString.match(/SharedAccessKey=([^;]*)/)[1];
  const sr = encodeURIComponent(httpBase.replace(/^http:/, "sb:") + "/");
  const se = Math.floor(Date.now() / 1000) + 3600;
  const sig = crypto.createHmac("sha256", key).update(sr + "\n" + se).digest("base64");
  return `SharedAccessSignature sr=${sr}&sig=${encodeURIComponent(sig)}&se=${se}&skn=${keyName}`;
}

async function control(path, body) {
  const response = await fetch(httpBase + "/__admin/" + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: authorization() },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.equal(response.status, 200, JSON.stringify(json));
  return json;
}

async function main() {
  const admin = new ServiceBusAdministrationClient(connectionString);
  admin.pipeline.addPolicy(emulatorHttp);
  const client = new ServiceBusClient(connectionString, { retryOptions: { maxRetries: 0, timeoutInMs: 20_000 } });
  try {
    say("STEP health");
    const health = await fetch(httpBase + "/health");
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "healthy", message: "Service is healthy." });

    say("STEP create-queue");
    const created = await admin.createQueue(QUEUE, { deadLetteringOnMessageExpiration: true });
    assert.equal(created.name, QUEUE);
    assert.equal(created.deadLetteringOnMessageExpiration, true);
    assert.equal(await admin.queueExists(QUEUE), true);

    say("STEP send-with-ttl");
    const sender = client.createSender(QUEUE);
    await sender.sendMessages({ body: "expires", messageId: "ttl-10m", timeToLive: 10 * 60 * 1000 });
    await sender.close();
    let counts = await admin.getQueueRuntimeProperties(QUEUE);
    assert.equal(counts.activeMessageCount, 1);

    say("STEP advance-clock");
    const before = await (await fetch(httpBase + "/__admin/clock", { headers: { Authorization: authorization() } })).json();
    const after = await control("clock/advance", { duration: "PT11M" });
    assert.equal(Date.parse(after.now) - Date.parse(before.now), 11 * 60 * 1000);

    say("STEP dead-letter-queue");
    const dlq = client.createReceiver(QUEUE, { subQueueType: "deadLetter", receiveMode: "receiveAndDelete" });
    const expired = await dlq.receiveMessages(1, { maxWaitTimeInMs: 10_000 });
    await dlq.close();
    assert.equal(expired.length, 1);
    assert.equal(expired[0].messageId, "ttl-10m");
    assert.equal(expired[0].deadLetterReason, "TTLExpiredException");

    say("STEP runtime-counts");
    counts = await admin.getQueueRuntimeProperties(QUEUE);
    assert.equal(counts.activeMessageCount, 0);
    assert.equal(counts.deadLetterMessageCount, 0);
    const journal = await (
      await fetch(httpBase + "/__admin/journal", { headers: { Authorization: authorization() } })
    ).json();
    assert.ok(journal.events.some((e) => e.type === "EXPIRED" && e.messageId === "ttl-10m"), "EXPIRED in the journal");
  } finally {
    await client.close();
  }
  say("DONE");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err && err.stack ? err.stack : err);
    process.exit(1);
  },
);
