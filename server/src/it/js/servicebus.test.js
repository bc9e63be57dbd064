// The Azure SDK for JavaScript (@azure/service-bus) against sbemu-server, as an application would use it.
// Run by .ci/languages, which starts the server jar and passes:
//   SBEMU_CONNECTION_STRING  Endpoint=sb://127.0.0.1:<amqp port>;SharedAccessKeyName=...;UseDevelopmentEmulator=true;
//   SBEMU_HTTP               http://127.0.0.1:<http port>   (management REST API, /health, /__admin/)
//   SBEMU_TLS_CERTIFICATE    the server's self-signed certificate in PEM (its TLS port's, served on every port)
// Entities come from ../Config.json. Each step prints "PASS <step>" or "FAIL <step>: <reason>".
"use strict";

const assert = require("node:assert/strict");
const fs = require("node:fs");
const WebSocket = require("ws");
const { ServiceBusClient, ServiceBusAdministrationClient } = require("@azure/service-bus");

const connectionString = process.env.SBEMU_CONNECTION_STRING;
const http = process.env.SBEMU_HTTP;
const client = new ServiceBusClient(connectionString, { retryOptions: { maxRetries: 1, timeoutInMs: 20_000 } });
const WAIT = { maxWaitTimeInMs: 10_000 };

// The server's control API: move its clock, read it.
async function control(method, path, body) {
  const response = await fetch(http + "/__admin/" + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(response.status, 200, `${method} /__admin/${path}: ${response.status}`);
  return response.json();
}

async function sendReceiveComplete() {
  const sender = client.createSender("basic");
  await sender.sendMessages({ body: { order: 42 }, messageId: "js-1", applicationProperties: { lang: "js" } });
  const receiver = client.createReceiver("basic");
  const [message] = await receiver.receiveMessages(1, WAIT);
  assert.deepEqual(message.body, { order: 42 });
  assert.equal(message.applicationProperties.lang, "js");
  await receiver.completeMessage(message);
  assert.equal((await receiver.peekMessages(1)).length, 0);
  await receiver.close();
  await sender.close();
}

async function abandonAndDeadLetter() {
  const sender = client.createSender("settle");
  await sender.sendMessages({ body: "try me", messageId: "js-2" });
  const receiver = client.createReceiver("settle");
  let [message] = await receiver.receiveMessages(1, WAIT);
  await receiver.abandonMessage(message);
  [message] = await receiver.receiveMessages(1, WAIT);
  assert.equal(message.deliveryCount, 1);
  await receiver.deadLetterMessage(message, { deadLetterReason: "Invalid", deadLetterErrorDescription: "bad order" });
  const dlq = client.createReceiver("settle", { subQueueType: "deadLetter" });
  const [dead] = await dlq.receiveMessages(1, WAIT);
  assert.equal(dead.messageId, "js-2");
  assert.equal(dead.deadLetterReason, "Invalid");
  await dlq.completeMessage(dead);
  await dlq.close();
  await receiver.close();
  await sender.close();
}

async function scheduledMessage() {
  const { now } = await control("GET", "clock");
  const sender = client.createSender("scheduled");
  const [sequenceNumber] = await sender.scheduleMessages({ body: "later" },
    new Date(Date.parse(now) + 30 * 60 * 1000));
  assert.ok(sequenceNumber !== undefined);
  const receiver = client.createReceiver("scheduled");
  const [peeked] = await receiver.peekMessages(1);
  assert.equal(peeked.state, "scheduled");
  await control("POST", "clock/advance", { duration: "PT31M" });
  const [message] = await receiver.receiveMessages(1, WAIT);
  assert.equal(message.body, "later");
  await receiver.completeMessage(message);
  await receiver.close();
  await sender.close();
}

async function sessionWithState() {
  const sender = client.createSender("sessions");
  await sender.sendMessages([{ body: "one", sessionId: "cart-7" }, { body: "two", sessionId: "cart-7" }]);
  const session = await client.acceptSession("sessions", "cart-7");
  await session.setSessionState("checkout");
  assert.equal((await session.getSessionState()).toString(), "checkout");
  const bodies = [];
  while (bodies.length < 2) {
    const messages = await session.receiveMessages(2 - bodies.length, WAIT);
    assert.ok(messages.length > 0, "session messages arrive");
    for (const m of messages) {
      bodies.push(m.body);
      await session.completeMessage(m);
    }
  }
  assert.deepEqual(bodies, ["one", "two"]);
  await session.close();
  await sender.close();
}

async function topicWithSqlFilter() {
  const sender = client.createSender("orders");
  await sender.sendMessages([
    { body: "red x3", applicationProperties: { color: "red", quantity: 3 } },
    { body: "blue x5", applicationProperties: { color: "blue", quantity: 5 } },
    { body: "red x1", applicationProperties: { color: "red", quantity: 1 } },
  ]);
  const red = client.createReceiver("orders", "red", { receiveMode: "receiveAndDelete" });
  const got = await red.receiveMessages(10, { maxWaitTimeInMs: 2_000 });
  assert.deepEqual(got.map((m) => m.body), ["red x3"]);
  const all = client.createReceiver("orders", "all", { receiveMode: "receiveAndDelete" });
  let count = 0;
  while (count < 3) {
    const batch = await all.receiveMessages(3 - count, WAIT);
    assert.ok(batch.length > 0, "the unfiltered subscription gets every message");
    count += batch.length;
  }
  await red.close();
  await all.close();
  await sender.close();
}

async function ttlToDeadLetterQueue() {
  const sender = client.createSender("expiring");
  await sender.sendMessages({ body: "perishable", messageId: "js-ttl", timeToLive: 10 * 60 * 1000 });
  await control("POST", "clock/advance", { duration: "PT11M" });
  const dlq = client.createReceiver("expiring", { subQueueType: "deadLetter", receiveMode: "receiveAndDelete" });
  const [expired] = await dlq.receiveMessages(1, WAIT);
  assert.equal(expired.messageId, "js-ttl");
  assert.equal(expired.deadLetterReason, "TTLExpiredException");
  await dlq.close();
  await sender.close();
}

// The administration client calls https:// on the connection string's host and port; the server speaks plain
// HTTP there (and on its HTTP port): one pipeline policy changes the scheme.
async function administration() {
  const admin = new ServiceBusAdministrationClient(connectionString);
  admin.pipeline.addPolicy({
    name: "emulator-http",
    sendRequest: (request, next) => {
      request.url = request.url.replace(/^https:/, "http:");
      request.allowInsecureConnection = true;
      return next(request);
    },
  });
  await admin.createQueue("created-by-js", { maxDeliveryCount: 3 });
  const sender = client.createSender("created-by-js");
  await sender.sendMessages([{ body: "a" }, { body: "b" }]);
  await sender.close();
  const counts = await admin.getQueueRuntimeProperties("created-by-js");
  assert.equal(counts.activeMessageCount, 2);
  assert.equal((await admin.getQueue("created-by-js")).maxDeliveryCount, 3);
}

// A CI job's own namespace (spec NS-5): created through the control API, used with the connection string it
// answers (its key name chooses the namespace, NS-2), deleted at the end; nothing crosses to the default namespace.
async function ownNamespace() {
  const created = await fetch(http + "/__admin/namespaces", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "js-own", clock: "frozen" }),
  });
  assert.equal(created.status, 201);
  const { connectionString: own } = await created.json();
  assert.match(own, /SharedAccessKeyName=js-own\/RootManageSharedAccessKey;/);
  const admin = new ServiceBusAdministrationClient(own);
  admin.pipeline.addPolicy({
    name: "emulator-http",
    sendRequest: (request, next) => {
      request.url = request.url.replace(/^https:/, "http:");
      request.allowInsecureConnection = true;
      return next(request);
    },
  });
  await admin.createQueue("basic"); // the default namespace has a "basic" too
  const ownClient = new ServiceBusClient(own, { retryOptions: { maxRetries: 1, timeoutInMs: 20_000 } });
  const sender = ownClient.createSender("basic");
  await sender.sendMessages({ body: "only in js-own", messageId: "js-own-1" });
  const receiver = ownClient.createReceiver("basic");
  const [message] = await receiver.receiveMessages(1, WAIT);
  assert.equal(message.body, "only in js-own");
  assert.equal(message.sequenceNumber.toNumber(), 1);
  await receiver.completeMessage(message);
  // its clock moves alone: two hours for js-own, the default's only as the wall clock runs
  const ownBefore = await control("GET", "namespaces/js-own/clock");
  const defaultBefore = await control("GET", "clock");
  await control("POST", "namespaces/js-own/clock/advance", { duration: "PT2H" });
  const ownAfter = await control("GET", "namespaces/js-own/clock");
  const defaultAfter = await control("GET", "clock");
  assert.equal(Date.parse(ownAfter.now) - Date.parse(ownBefore.now), 2 * 3600 * 1000);
  assert.ok(Date.parse(defaultAfter.now) - Date.parse(defaultBefore.now) < 2 * 3600 * 1000);
  const theirs = client.createReceiver("basic");
  assert.equal((await theirs.peekMessages(10)).filter((m) => m.messageId === "js-own-1").length, 0);
  await theirs.close();
  await receiver.close();
  await sender.close();
  await ownClient.close();
  const deleted = await fetch(http + "/__admin/namespaces/js-own", { method: "DELETE" });
  assert.equal(deleted.status, 200);
}

// The guide's administration set-up for Microsoft's connection string, which has no port (docs/guide/
// http-and-control.md): as written there, the port being the server's HTTP port (5300 in the guide).
async function portlessConnectionString() {
  const port = new URL(http).port;
  const microsofts = connectionString.replace(/Endpoint=sb:\/\/[^;]*;/, "Endpoint=sb://localhost;");
  assert.match(microsofts, /^Endpoint=sb:\/\/localhost;/);
  const admin = new ServiceBusAdministrationClient(microsofts);
  // --- as in the guide ---
  admin.pipeline.addPolicy({
    name: "emulator-http",
    sendRequest: (req, next) => {
      const u = new URL(req.url);
      u.protocol = "http:";
      if (!u.port) u.port = port;
      req.url = u.toString();
      req.allowInsecureConnection = true;
      return next(req);
    },
  });
  // ---
  await admin.createQueue("created-portless-js");
  assert.equal(await admin.queueExists("created-portless-js"), true);
  assert.equal(await admin.queueExists("never-created"), false);
  await admin.deleteQueue("created-portless-js");
}

async function createNamespace(body) {
  const response = await fetch(http + "/__admin/namespaces", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 201, `POST /__admin/namespaces: ${response.status}`);
  return (await response.json()).connectionString;
}

function adminOf(cs) {
  const admin = new ServiceBusAdministrationClient(cs);
  admin.pipeline.addPolicy({
    name: "emulator-http",
    sendRequest: (request, next) => {
      request.url = request.url.replace(/^https:/, "http:");
      request.allowInsecureConnection = true;
      return next(request);
    },
  });
  return admin;
}

// Two namespaces on one server (spec NS-1, NS-3): entities of the same names, clocks moved differently, a fault
// scripted in one, a key of each; nothing crosses between them.
async function twoNamespaces() {
  const start = "2030-01-01T00:00:00Z";
  const csA = await createNamespace({ name: "js-a", clock: "frozen", startAt: start, key: "key-of-js-a" });
  const csB = await createNamespace({ name: "js-b", clock: "frozen", startAt: start, key: "key-of-js-b" });
  assert.match(csA, /SharedAccessKey=key-of-js-a;/);
  for (const cs of [csA, csB]) await adminOf(cs).createQueue("orders");
  await control("POST", "namespaces/js-a/clock/advance", { duration: "PT1H" });
  await control("POST", "namespaces/js-b/clock/advance", { duration: "PT3H" });
  assert.equal((await control("GET", "namespaces/js-a/clock")).now, "2030-01-01T01:00:00Z");
  assert.equal((await control("GET", "namespaces/js-b/clock")).now, "2030-01-01T03:00:00Z");
  const a = new ServiceBusClient(csA, { retryOptions: { maxRetries: 1, timeoutInMs: 20_000 } });
  const b = new ServiceBusClient(csB, { retryOptions: { maxRetries: 1, timeoutInMs: 20_000 } });
  try {
    for (const [client, body] of [[a, "for a"], [b, "for b"]]) {
      const sender = client.createSender("orders");
      await sender.sendMessages({ body });
      await sender.close();
    }
    for (const [client, body, hour] of [[a, "for a", 1], [b, "for b", 3]]) {
      const receiver = client.createReceiver("orders");
      const got = await receiver.receiveMessages(10, WAIT);
      assert.deepEqual(got.map((m) => m.body), [body]);
      assert.equal(got[0].sequenceNumber.toNumber(), 1);
      assert.equal(got[0].enqueuedTimeUtc.toISOString(), `2030-01-01T0${hour}:00:00.000Z`);
      await receiver.completeMessage(got[0]);
      await receiver.close();
    }
    // a fault scripted on js-a's "orders" acts there only
    const fault = await fetch(http + "/__admin/namespaces/js-a/faults", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ entity: "orders", action: "failNext", count: 1, operation: "SEND",
        failure: "QUOTA_EXCEEDED" }),
    });
    assert.equal(fault.status, 201);
    const senderB = b.createSender("orders");
    await senderB.sendMessages({ body: "unhurt" });
    await senderB.close();
    const senderA = a.createSender("orders");
    await assert.rejects(senderA.sendMessages({ body: "hurt" }), (e) => e.code === "QuotaExceeded");
    await senderA.close();
    assert.equal((await control("GET", "namespaces/js-b/faults")).faults.length, 0);
  } finally {
    await a.close();
    await b.close();
  }
  // each namespace's key is its own: js-a's key name with js-b's key is refused
  const crossed = new ServiceBusClient(csA.replace("key-of-js-a", "key-of-js-b"),
    { retryOptions: { maxRetries: 0, timeoutInMs: 20_000 } });
  const intruder = crossed.createSender("orders");
  await assert.rejects(intruder.sendMessages({ body: "crossed" }), (e) => e.code === "UnauthorizedAccess");
  await crossed.close();
  for (const name of ["js-a", "js-b"]) {
    const deleted = await fetch(http + "/__admin/namespaces/" + name, { method: "DELETE" });
    assert.equal(deleted.status, 200);
  }
}

// AMQP over WebSockets (spec AMQP-26): with webSocketOptions the SDK dials
// wss://<the connection string's host:port>/$servicebus/websocket (subprotocol AMQPWSB10) through the given
// constructor, TLS whatever UseDevelopmentEmulator says; ws's "ca" option trusts the server's certificate for this
// client only.
async function webSockets() {
  const overWs = new ServiceBusClient(connectionString, {
    retryOptions: { maxRetries: 1, timeoutInMs: 20_000 },
    webSocketOptions: {
      webSocket: WebSocket,
      webSocketConstructorOptions: { ca: fs.readFileSync(process.env.SBEMU_TLS_CERTIFICATE) },
    },
  });
  try {
    const sender = overWs.createSender("basic");
    await sender.sendMessages({ body: "over wss", messageId: "js-wss" });
    await sender.close();
    const receiver = overWs.createReceiver("basic");
    const [message] = await receiver.receiveMessages(1, WAIT);
    assert.equal(message.body, "over wss");
    await receiver.completeMessage(message);
    await receiver.close();
  } finally {
    await overWs.close();
  }
}

const steps = { sendReceiveComplete, abandonAndDeadLetter, scheduledMessage, sessionWithState, topicWithSqlFilter,
  ttlToDeadLetterQueue, administration, ownNamespace, portlessConnectionString, twoNamespaces, webSockets };

async function main() {
  let failed = 0;
  for (const [name, step] of Object.entries(steps)) {
    try {
      await step();
      console.log(`PASS ${name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${(e && e.message ? e.message : String(e)).split("\n")[0]}`);
      console.error(e);
    }
  }
  await client.close();
  return failed;
}

main().then((failed) => process.exit(failed ? 1 : 0), (e) => { console.error(e); process.exit(1); });
