// Drives the sbemu AMQP endpoint with the Azure SDK for JavaScript (@azure/service-bus, over rhea), a client
// no one here wrote. Run by dev.sbemu.amqp.NodeClientTest, which creates the entities, starts the endpoint
// and owns the virtual clock:
//
//   node service-bus-client.js <connection string>
//
// Protocol on stdout (lines starting with "@@sbemu "; everything else is log):
//   @@sbemu STEP <name>    a step starts
//   @@sbemu WAIT <event>   the script waits for one stdin line from the Java side (it advances the clock,
//                          checks the namespace, and answers with the reply the script expects)
//   @@sbemu DONE           every step passed
// A failed step prints its error to stderr and exits with status 1.
"use strict";

const assert = require("node:assert/strict");
const readline = require("node:readline");
const { ServiceBusClient } = require("@azure/service-bus");

const connectionString = process.argv[2];
if (!connectionString) {
  console.error("usage: node service-bus-client.js <connection string>");
  process.exit(2);
}

const QUEUE = "js-queue";
const SESSION_QUEUE = "js-sessions";
const TOPIC = "js-topic";
const RED = "red"; // subscription with the SQL filter color = 'red'
const ALL = "all"; // subscription with the $Default rule

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

function say(line) {
  process.stdout.write(`@@sbemu ${line}\n`);
}

/** Tells the Java side that `event` happened and waits for its answer, which must be `expectedReply`. */
async function handOver(event, expectedReply) {
  say(`WAIT ${event}`);
  const next = await lines.next();
  assert.ok(!next.done, `stdin closed while waiting for '${expectedReply}' after '${event}'`);
  assert.equal(next.value.trim(), expectedReply, `the Java side's answer to '${event}'`);
}

/** Receives exactly `count` messages (bounded wall-clock wait: the messages are already there). */
async function receiveExactly(receiver, count) {
  const got = [];
  for (let attempt = 0; attempt < 5 && got.length < count; attempt++) {
    got.push(...(await receiver.receiveMessages(count - got.length, { maxWaitTimeInMs: 5000 })));
  }
  assert.equal(got.length, count, `messages received from ${receiver.entityPath}`);
  return got;
}

async function sendReceiveComplete(client) {
  const sender = client.createSender(QUEUE);
  const receiver = client.createReceiver(QUEUE);
  await sender.sendMessages({
    body: { order: 42, items: ["a", "b"] },
    messageId: "m-1",
    correlationId: "c-1",
    contentType: "application/json",
    subject: "order",
    applicationProperties: { color: "red", size: 7, urgent: true },
  });
  const [m] = await receiveExactly(receiver, 1);
  assert.deepEqual(m.body, { order: 42, items: ["a", "b"] });
  assert.equal(m.messageId, "m-1");
  assert.equal(m.correlationId, "c-1");
  assert.equal(m.contentType, "application/json");
  assert.equal(m.subject, "order");
  assert.deepEqual(m.applicationProperties, { color: "red", size: 7, urgent: true });
  assert.equal(m.deliveryCount, 0);
  assert.ok(m.lockToken, "a peek-lock message has a lock token");
  assert.ok(m.sequenceNumber !== undefined, "a received message has a sequence number");
  assert.ok(m.enqueuedTimeUtc instanceof Date, "a received message has an enqueued time");
  await receiver.completeMessage(m);
  assert.equal((await receiver.peekMessages(10)).length, 0, "the queue is empty after complete");
  await receiver.close();
  await sender.close();
}

async function abandon(client) {
  const sender = client.createSender(QUEUE);
  const receiver = client.createReceiver(QUEUE);
  await sender.sendMessages({ body: "abandon me", messageId: "m-abandon" });
  const [first] = await receiveExactly(receiver, 1);
  assert.equal(first.deliveryCount, 0);
  await receiver.abandonMessage(first, { abandonedBy: "node" });
  const [again] = await receiveExactly(receiver, 1);
  assert.equal(again.messageId, "m-abandon");
  assert.equal(again.deliveryCount, 1, "an abandoned message comes back with one more delivery");
  assert.equal(again.applicationProperties.abandonedBy, "node", "abandon's properties to modify");
  await receiver.completeMessage(again);
  await receiver.close();
  await sender.close();
}

async function deadLetter(client) {
  const sender = client.createSender(QUEUE);
  const receiver = client.createReceiver(QUEUE);
  const dlq = client.createReceiver(QUEUE, { subQueueType: "deadLetter" });
  await sender.sendMessages({ body: "poison", messageId: "m-poison" });
  const [m] = await receiveExactly(receiver, 1);
  await receiver.deadLetterMessage(m, { deadLetterReason: "Poison", deadLetterErrorDescription: "cannot parse" });
  const [dead] = await receiveExactly(dlq, 1);
  assert.equal(dead.messageId, "m-poison");
  assert.equal(dead.body, "poison");
  assert.equal(dead.deadLetterReason, "Poison");
  assert.equal(dead.deadLetterErrorDescription, "cannot parse");
  await dlq.completeMessage(dead);
  await dlq.close();
  await receiver.close();
  await sender.close();
}

async function defer(client) {
  const sender = client.createSender(QUEUE);
  const receiver = client.createReceiver(QUEUE);
  await sender.sendMessages({ body: "later, by number", messageId: "m-defer" });
  const [m] = await receiveExactly(receiver, 1);
  await receiver.deferMessage(m);
  const [deferred] = await receiver.receiveDeferredMessages([m.sequenceNumber]);
  assert.equal(deferred.messageId, "m-defer");
  assert.equal(deferred.state, "deferred");
  await receiver.completeMessage(deferred);
  await receiver.close();
  await sender.close();
}

async function schedule(client) {
  const sender = client.createSender(QUEUE);
  const receiver = client.createReceiver(QUEUE);
  // The virtual clock started frozen at the wall-clock now when the test began, so an hour from the
  // wall-clock now is in its future.
  const inOneHour = new Date(Date.now() + 3600_000);
  const [kept] = await sender.scheduleMessages({ body: "scheduled", messageId: "m-scheduled" }, inOneHour);
  const [cancelled] = await sender.scheduleMessages({ body: "cancelled", messageId: "m-cancelled" }, inOneHour);
  await sender.cancelScheduledMessages([cancelled]);
  const peeked = await receiver.peekMessages(10);
  assert.deepEqual(peeked.map((p) => [p.messageId, p.state]), [["m-scheduled", "scheduled"]]);
  assert.equal(peeked[0].sequenceNumber.toString(), kept.toString());
  await handOver("scheduled", "clock advanced 2h");
  const [m] = await receiveExactly(receiver, 1);
  assert.equal(m.messageId, "m-scheduled");
  assert.equal(m.body, "scheduled");
  assert.equal(m.scheduledEnqueueTimeUtc.getTime(), inOneHour.getTime());
  await receiver.completeMessage(m);
  await receiver.close();
  await sender.close();
}

async function timeToLive(client) {
  const sender = client.createSender(QUEUE);
  const receiver = client.createReceiver(QUEUE);
  const dlq = client.createReceiver(QUEUE, { subQueueType: "deadLetter" });
  await sender.sendMessages({ body: "short-lived", messageId: "m-ttl", timeToLive: 60_000 });
  await handOver("ttl-sent", "clock advanced 61s");
  assert.equal((await receiver.peekMessages(10)).length, 0, "the expired message left the queue");
  const [dead] = await receiveExactly(dlq, 1);
  assert.equal(dead.messageId, "m-ttl");
  assert.equal(dead.deadLetterReason, "TTLExpiredException");
  await dlq.completeMessage(dead);
  await dlq.close();
  await receiver.close();
  await sender.close();
}

async function receiveAndDeleteAndSubscribe(client) {
  const sender = client.createSender(QUEUE);
  await sender.sendMessages([{ body: "r&d" }, { body: "streamed" }]);
  const deleting = client.createReceiver(QUEUE, { receiveMode: "receiveAndDelete" });
  const [gone] = await receiveExactly(deleting, 1);
  assert.equal(gone.body, "r&d");
  await deleting.close();

  const streaming = client.createReceiver(QUEUE);
  const body = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("subscribe: no message within 10 s")), 10_000);
    const subscription = streaming.subscribe(
      {
        processMessage: async (m) => {
          clearTimeout(timer);
          await subscription.close();
          resolve(m.body);
        },
        processError: async (args) => {
          clearTimeout(timer);
          reject(args.error);
        },
      },
      { autoCompleteMessages: true },
    );
  });
  assert.equal(body, "streamed");
  await streaming.close();
  assert.equal((await client.createReceiver(QUEUE).peekMessages(10)).length, 0, "the queue is empty");
  await sender.close();
}

async function sessions(client) {
  const sender = client.createSender(SESSION_QUEUE);
  await sender.sendMessages([
    { body: "a1", sessionId: "alpha" },
    { body: "b1", sessionId: "beta" },
    { body: "a2", sessionId: "alpha" },
    { body: "a3", sessionId: "alpha" },
  ]);
  const alpha = await client.acceptSession(SESSION_QUEUE, "alpha");
  assert.equal(alpha.sessionId, "alpha");
  const got = await receiveExactly(alpha, 3);
  assert.deepEqual(got.map((m) => m.body), ["a1", "a2", "a3"], "a session's messages in order");
  assert.ok(got.every((m) => m.sessionId === "alpha"));
  await alpha.setSessionState("step-2");
  assert.equal(String(await alpha.getSessionState()), "step-2");
  for (const m of got) {
    await alpha.completeMessage(m);
  }
  await alpha.close();

  const next = await client.acceptNextSession(SESSION_QUEUE);
  assert.equal(next.sessionId, "beta", "the next session with messages");
  const [b1] = await receiveExactly(next, 1);
  assert.equal(b1.body, "b1");
  await next.completeMessage(b1);
  await next.close();

  const again = await client.acceptSession(SESSION_QUEUE, "alpha");
  assert.equal(String(await again.getSessionState()), "step-2", "session state outlives the session lock");
  await again.close();
  await sender.close();
}

async function topicWithSqlFilter(client) {
  const sender = client.createSender(TOPIC);
  await sender.sendMessages([
    { body: "r1", applicationProperties: { color: "red", size: 1 } },
    { body: "b1", applicationProperties: { color: "blue", size: 20 } },
    { body: "r2", applicationProperties: { color: "red", size: 30 } },
  ]);
  const red = client.createReceiver(TOPIC, RED);
  const all = client.createReceiver(TOPIC, ALL);
  const reds = await receiveExactly(red, 2);
  assert.deepEqual(reds.map((m) => m.body), ["r1", "r2"], "the SQL filter keeps the red ones");
  const alls = await receiveExactly(all, 3);
  assert.deepEqual(alls.map((m) => m.body), ["r1", "b1", "r2"]);
  for (const m of reds) await red.completeMessage(m);
  for (const m of alls) await all.completeMessage(m);

  // The subscription's rules over the $management node: list, add, remove.
  const rules = client.createRuleManager(TOPIC, RED);
  const listed = [];
  for await (const rule of rules.listRules()) listed.push(rule);
  assert.deepEqual(listed.map((r) => [r.name, r.filter.sqlExpression]), [["red-only", "color = 'red'"]]);
  await rules.createRule("big", { sqlExpression: "size > 10" });
  await sender.sendMessages([
    { body: "b2", applicationProperties: { color: "blue", size: 50 } },
    { body: "b3", applicationProperties: { color: "blue", size: 5 } },
  ]);
  const [big] = await receiveExactly(red, 1);
  assert.equal(big.body, "b2", "the added rule lets big blue messages in");
  await red.completeMessage(big);
  await rules.deleteRule("big");
  await sender.sendMessages({ body: "b4", applicationProperties: { color: "blue", size: 60 } });
  assert.equal((await red.peekMessages(10)).length, 0, "the removed rule no longer matches");
  const rest = await receiveExactly(all, 3);
  for (const m of rest) await all.completeMessage(m);
  await red.close();
  await all.close();
  await sender.close();
}

async function main() {
  const client = new ServiceBusClient(connectionString, {
    // Fail fast: a retry would only hide an endpoint bug, and the Java side bounds the whole run.
    retryOptions: { maxRetries: 0, timeoutInMs: 20_000 },
  });
  const steps = [
    ["send-receive-complete", sendReceiveComplete],
    ["abandon", abandon],
    ["dead-letter", deadLetter],
    ["defer", defer],
    ["schedule", schedule],
    ["ttl", timeToLive],
    ["receive-and-delete-and-subscribe", receiveAndDeleteAndSubscribe],
    ["sessions", sessions],
    ["topic-sql-filter", topicWithSqlFilter],
  ];
  try {
    for (const [name, step] of steps) {
      say(`STEP ${name}`);
      await step(client);
    }
  } catch (err) {
    // Report the step's failure, not whatever closing the client afterwards runs into.
    await client.close().catch((closeErr) => console.error(`closing the client after the failure: ${closeErr}`));
    throw err;
  }
  await client.close();
  say("DONE");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err && err.stack ? err.stack : err);
    process.exit(1);
  },
);
