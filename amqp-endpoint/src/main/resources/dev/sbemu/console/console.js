// The sbemu console: reads and drives the namespace through the control API only (/__admin/..., described at
// /__admin/openapi.json), so that whatever the page does a script can do too. Plain ES module, no dependencies.

// The namespace the page looks at: null for the server's default namespace (today's routes). A picker sets it.
let namespace = null;

const $ = (selector) => document.querySelector(selector);
const state = { selected: null, tab: 'messages', journalLast: -1, entities: null, busy: false, rights: null };

/** The control API's URL of `path` (e.g. "clock/advance") for the namespace the page looks at. */
function api(path) {
  return namespace === null
    ? `/__admin/${path}`
    : `/__admin/namespaces/${encodeURIComponent(namespace)}/${path}`;
}

/** Calls the control API of the namespace the page looks at (see callUrl). */
function call(method, path, body) {
  return callUrl(method, api(path), body);
}

/** Calls the control API; sends the Authorization header kept for the session when one was given. */
async function callUrl(method, url, body) {
  const headers = {};
  const key = sessionStorage.getItem('sbemu.console.authorization');
  if (key) headers['Authorization'] = key;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store',
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (response.status === 401) {
    $('#auth-key').focus();
    throw new Error('The control API asks for a key: enter the Authorization value above.');
  }
  if (!response.ok) throw new Error(`${json.error || response.status}: ${json.message || text}`);
  return json;
}

function status(message) {
  $('#status').textContent = message || '';
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c ?? ''));
  return node;
}

// ---- entities -------------------------------------------------------------------------------------------------

/** The query naming an entity: {entity, subscription?, subQueue?}. */
function query(target, extra = {}) {
  const q = new URLSearchParams({ entity: target.entity });
  if (target.subscription) q.set('subscription', target.subscription);
  if (target.subQueue) q.set('subQueue', target.subQueue);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

function pathOf(target) {
  return [target.entity, target.subscription ? `subscriptions/${target.subscription}` : null,
    target.subQueue ? '$deadletterqueue' : null].filter(Boolean).join('/');
}

function counts(c, deadLetterOnly) {
  const span = el('span', { class: 'counts' });
  if (deadLetterOnly) {
    span.append(el('span', { class: 'dl', title: 'dead-lettered' }, String(c.deadLetter)));
    return span;
  }
  span.append(
    el('span', { title: 'active' }, `${c.active}a`),
    el('span', { title: 'scheduled' }, `${c.scheduled}s`),
    el('span', { title: 'deferred' }, `${c.deferred}d`),
    el('span', { class: 'dl', title: 'dead-lettered' }, `${c.deadLetter}dl`),
  );
  if (c.transferDeadLetter) span.append(el('span', { class: 'dl', title: 'transfer dead-lettered' }, `${c.transferDeadLetter}tdl`));
  return span;
}

function node(label, kind, target, c, info, deadLetterOnly) {
  const path = pathOf(target);
  const selected = state.selected && pathOf(state.selected.target) === path;
  return el('div', {
    class: selected ? 'node selected' : 'node',
    dataset: { path },
    onclick: () => select(target, info),
  }, el('span', {}, el('span', { class: 'kind' }, kind), label), counts(c, deadLetterOnly));
}

function renderTree(data) {
  const tree = $('#tree');
  const root = el('ul');
  root.append(el('li', { class: 'group' }, `Queues (${data.queues.length})`));
  for (const q of data.queues) {
    const target = { entity: q.name };
    root.append(el('li', {}, node(q.name, 'queue', target, q.counts, q),
      el('ul', {}, el('li', {}, node('dead-letter queue', 'dlq', { ...target, subQueue: 'deadletter' }, q.counts, q, true)))));
  }
  root.append(el('li', { class: 'group' }, `Topics (${data.topics.length})`));
  for (const t of data.topics) {
    const subs = el('ul');
    for (const s of t.subscriptions) {
      const target = { entity: t.name, subscription: s.name };
      subs.append(el('li', {}, node(s.name, 'sub', target, s.counts, s),
        el('ul', {}, el('li', {}, node('dead-letter queue', 'dlq', { ...target, subQueue: 'deadletter' }, s.counts, s, true)))));
    }
    root.append(el('li', {}, node(t.name, 'topic', { entity: t.name, topic: true }, t.counts, t), subs));
  }
  tree.replaceChildren(root);
}

function select(target, info) {
  const wasTopic = state.selected && state.selected.target.topic;
  state.selected = { target, info };
  if (wasTopic && !target.topic) state.tab = 'messages';
  const kind = target.topic ? 'topic' : target.subscription ? 'subscription' : 'queue';
  $('#detail-title').textContent = `${pathOf(target)} (${target.subQueue ? 'dead-letter queue' : kind})`;
  $('#tabs').hidden = false;
  if (target.topic) state.tab = 'properties';
  act(async () => {});
}

// ---- messages -------------------------------------------------------------------------------------------------

function hex(base64) {
  const bytes = atob(base64);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes.charCodeAt(i).toString(16).padStart(2, '0') + (i % 16 === 15 ? '\n' : ' ');
  return out.trim();
}

function bodyText(m) {
  const mode = $('#body-mode').value;
  if (mode === 'hex' && m.bodyBase64 !== undefined) return hex(m.bodyBase64);
  if (mode === 'json') {
    try { return JSON.stringify(JSON.parse(m.body), null, 2); } catch { return m.body; }
  }
  return m.body;
}

async function renderMessages(target) {
  const data = await call('GET', `messages?${query(target)}`);
  const rows = data.messages.map((m) => {
    const props = Object.entries(m.applicationProperties || {})
      .filter(([k]) => k !== 'DeadLetterReason' && k !== 'DeadLetterErrorDescription')
      .map(([k, v]) => `${k}=${v}`).join(', ');
    const system = ['correlationId', 'subject', 'to', 'replyTo', 'contentType', 'timeToLive', 'scheduledEnqueueTime', 'lockedUntil', 'deadLetterSource']
      .filter((k) => m[k] !== undefined).map((k) => `${k}=${m[k]}`).join(', ');
    const actions = el('td');
    if (target.subQueue) {
      actions.append(el('button', {
        type: 'button', class: 'resubmit manage',
        onclick: () => act(() => call('POST', `messages/resubmit?${query({ ...target, subQueue: null }, { sequenceNumber: m.sequenceNumber })}`),
          `Resubmitted #${m.sequenceNumber}.`),
      }, 'Resubmit'));
    }
    return el('tr', { class: 'message-row', dataset: { seq: m.sequenceNumber } },
      el('td', {}, String(m.sequenceNumber)),
      el('td', {}, m.messageId ?? ''),
      el('td', { class: 'state' }, m.state),
      el('td', {}, m.sessionId ?? ''),
      el('td', {}, el('time', {}, m.enqueuedTime ?? '')),
      el('td', {}, el('time', {}, m.expiresAt ?? 'never')),
      el('td', {}, String(m.deliveryCount)),
      el('td', { class: 'dl-reason', title: m.deadLetterErrorDescription ?? '' },
        m.deadLetterReason ?? '', m.deadLetterErrorDescription ? el('div', { class: 'dl-description' }, m.deadLetterErrorDescription) : ''),
      el('td', { class: 'body' }, bodyText(m), (system || props) ? el('div', { class: 'props' }, [system, props].filter(Boolean).join(' · ')) : ''),
      actions);
  });
  $('#messages tbody').replaceChildren(...rows);
  $('#messages-empty').hidden = rows.length > 0;
  $('#send-form').hidden = Boolean(target.subQueue || target.subscription);
}

async function renderSessions(target) {
  let data;
  try {
    data = await call('GET', `sessions?${query({ ...target, subQueue: null })}`);
  } catch (e) {
    $('#sessions tbody').replaceChildren();
    $('#sessions-empty').hidden = false;
    $('#sessions-empty').textContent = e.message;
    return;
  }
  const rows = data.sessions.map((s) => el('tr', { class: 'session-row', dataset: { session: s.sessionId } },
    el('td', {}, s.sessionId),
    el('td', { class: 'holder' }, s.held ? s.holder : '(free)'),
    el('td', {}, el('time', {}, s.lockedUntil ?? '')),
    el('td', {}, String(s.readyMessages)),
    el('td', { class: 'session-state' }, s.state ?? (s.stateBase64 ? hex(s.stateBase64) : ''))));
  $('#sessions tbody').replaceChildren(...rows);
  $('#sessions-empty').textContent = 'No sessions.';
  $('#sessions-empty').hidden = rows.length > 0;
}

function renderProperties(info) {
  const rows = Object.entries(info.properties || {}).map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, String(v))));
  for (const k of ['createdAt', 'updatedAt', 'accessedAt', 'sizeInBytes']) {
    if (info[k] !== undefined) rows.push(el('tr', {}, el('th', {}, k), el('td', {}, String(info[k]))));
  }
  $('#properties tbody').replaceChildren(...rows);
  const rules = (info.rules || []).map((r) => el('tr', { class: 'rule-row' }, el('td', {}, r.name), el('td', {}, r.filter ?? ''), el('td', {}, r.action ?? '')));
  $('#rules tbody').replaceChildren(...rules);
  $('#rules').hidden = $('#rules-title').hidden = rules.length === 0;
}

// ---- clock, journal, refresh ----------------------------------------------------------------------------------

function renderClock(clock) {
  $('#clock-now').textContent = clock.now;
  $('#clock-now').setAttribute('datetime', clock.now);
  $('#clock-mode').textContent = clock.mode.toLowerCase();
  $('#clock-mode').className = `badge ${clock.mode}`;
}

/** Follows the journal with its cursor (after=the last index seen), filtered by entity and event types. */
async function renderJournal() {
  const q = new URLSearchParams({ after: state.journalLast });
  const entity = $('#journal-entity').value.trim();
  const types = $('#journal-type').value.trim();
  if (entity) q.set('entity', entity);
  if (types) q.set('type', types);
  const data = await call('GET', `journal?${q}`);
  const list = $('#journal-events');
  if (data.last < state.journalLast) {
    // a fresh namespace (a reset): its journal starts again
    restartJournal();
    return renderJournal();
  }
  state.journalLast = data.last;
  for (const e of data.events) {
    list.append(el('li', { dataset: { index: e.index, entity: e.entity ?? '', type: e.type } },
      el('span', { class: 'at' }, e.at), e.text.startsWith(e.at) ? e.text.slice(e.at.length).trim() : e.text));
  }
  while (list.children.length > 500) list.firstElementChild.remove();
  if (data.events.length) list.scrollTop = list.scrollHeight;
}

function restartJournal() {
  $('#journal-events').replaceChildren();
  state.journalLast = -1;
}

// ---- connections, timers, faults ------------------------------------------------------------------------------

async function renderConnections() {
  const data = await call('GET', 'connections');
  const rows = [];
  for (const c of data.connections) {
    const who = el('span', { title: `${c.containerId ?? ''} ${c.hostname ?? ''} since ${c.openedAt}` },
      c.client, c.authorized ? '' : ' (no token yet)');
    const links = c.links.length ? c.links : [null];
    links.forEach((l, i) => rows.push(el('tr', { class: 'link-row', dataset: { connection: c.id, address: l ? l.address ?? '' : '' } },
      el('td', {}, i === 0 ? who : ''),
      el('td', {}, l ? l.name : '(no links)'),
      el('td', { class: 'role' }, l ? l.role : ''),
      el('td', { class: 'address' }, l ? l.address ?? '' : ''),
      el('td', { class: 'mode' }, l ? l.receiveMode ?? '' : ''),
      el('td', {}, l ? l.sessionId ?? '' : ''),
      el('td', { class: 'credit' }, l ? String(l.credit) : ''),
      el('td', { class: 'unsettled' }, l ? String(l.unsettled) : ''))));
  }
  $('#connections tbody').replaceChildren(...rows);
  $('#connections-empty').hidden = rows.length > 0;
}

/** A span of time as "+1h 2m 3s" (what a timer's due instant is from now). */
function span(from, to) {
  let s = Math.round((Date.parse(to) - Date.parse(from)) / 1000);
  const sign = s < 0 ? '-' : '+';
  s = Math.abs(s);
  const parts = [[Math.floor(s / 86400), 'd'], [Math.floor(s % 86400 / 3600), 'h'], [Math.floor(s % 3600 / 60), 'm'], [s % 60, 's']];
  return sign + (parts.filter(([n]) => n).map(([n, u]) => `${n}${u}`).join(' ') || '0s');
}

async function renderTimers() {
  const data = await call('GET', 'clock/timers?max=20');
  const rows = data.timers.map((t) => el('tr', { class: 'timer-row', dataset: { kind: t.kind } },
    el('td', {}, el('time', {}, t.due)),
    el('td', {}, span(data.now, t.due)),
    el('td', { class: 'kind' }, t.kind.toLowerCase().replaceAll('_', ' ')),
    el('td', {}, t.entity),
    el('td', { class: 'what' }, [t.sequenceNumber !== undefined ? `#${t.sequenceNumber}` : '', t.messageId ?? '', t.detail ?? ''].filter(Boolean).join(' '))));
  $('#timers-table tbody').replaceChildren(...rows);
  $('#timers-empty').hidden = rows.length > 0;
  $('#next-timer-button').disabled = rows.length === 0;
}

function faultText(f) {
  const where = f.entity ? `${f.entity}${f.subscription ? `/${f.subscription}` : ''}` : 'every entity';
  const how = f.action.startsWith('delay') ? `by ${f.delay}` : f.failure;
  const times = f.action === 'failFraction' ? `${f.fraction} of` : `next ${f.count ?? 1}`;
  return `${f.action}: ${times} ${f.operation} on ${where}, ${how}`;
}

async function renderFaults() {
  const data = await call('GET', 'faults');
  const rows = data.faults.map((f) => el('tr', { class: 'fault-row', dataset: { id: f.id } },
    el('td', {}, String(f.id)),
    el('td', { class: 'fault' }, faultText(f)),
    el('td', { class: 'acted' }, String(f.actedOn)),
    el('td', {}, f.done ? 'done' : ''),
    el('td', {}, el('button', {
      type: 'button', class: 'cancel-fault manage',
      onclick: () => act(() => call('DELETE', `faults/${f.id}`), `Cancelled fault ${f.id}.`),
    }, 'Cancel'))));
  $('#faults-table tbody').replaceChildren(...rows);
  $('#faults-empty').hidden = rows.length > 0;
}

function addFault() {
  const body = { action: $('#fault-action').value, operation: $('#fault-operation').value };
  if (!body.action.startsWith('delay')) body.failure = $('#fault-failure').value;
  for (const [field, id] of [['entity', '#fault-entity'], ['subscription', '#fault-subscription'], ['delay', '#fault-delay']]) {
    const v = $(id).value.trim();
    if (v) body[field] = v;
  }
  if (body.action === 'failFraction') body.fraction = Number($('#fault-fraction').value.trim());
  else body.count = Number($('#fault-count').value.trim() || '1');
  act(() => call('POST', 'faults', body), 'Fault added.');
}

// ---- namespaces and rights ------------------------------------------------------------------------------------

/** Fills the namespace picker; hidden when the key may not list namespaces (they carry keys) or there is one. */
async function loadNamespaces() {
  let data;
  try {
    data = await callUrl('GET', '/__admin/namespaces');
  } catch {
    $('#namespace-label').hidden = true;
    return;
  }
  const picker = $('#namespace-picker');
  const names = data.namespaces.map((n) => n.name).join('\n');
  if (picker.dataset.names !== names) {
    // replaced only when they changed: an open drop-down stays as it is
    picker.replaceChildren(...data.namespaces.map((n) => el('option', { value: n.default ? '' : n.name }, n.name)));
    picker.dataset.names = names;
    picker.value = namespace ?? '';
  }
  $('#namespace-label').hidden = data.namespaces.length < 2;
}

function pickNamespace(name) {
  namespace = name || null;
  state.selected = null;
  state.rights = null;
  $('#detail-title').textContent = 'Pick an entity';
  $('#tabs').hidden = true;
  restartJournal();
  act(async () => {});
}

/** What the key allows: the page hides what it may not do (class "manage") when it may only read. */
async function loadRights() {
  state.rights = await call('GET', 'rights');
  document.body.classList.toggle('readonly', !state.rights.manage);
  $('#readonly').hidden = state.rights.manage;
}

function findInfo(data, target) {
  if (target.topic) return data.topics.find((t) => t.name === target.entity);
  if (target.subscription) {
    const topic = data.topics.find((t) => t.name === target.entity);
    return topic && topic.subscriptions.find((s) => s.name === target.subscription);
  }
  return data.queues.find((q) => q.name === target.entity);
}

async function refresh() {
  if (state.busy) return;
  state.busy = true;
  try {
    if (state.rights === null) await loadRights();
    // the views that do not depend on the selection load side by side: fewer round trips in a row
    const panels = Promise.all([renderConnections(), renderTimers(), renderFaults(), renderJournal()]);
    panels.catch(() => {}); // awaited below; an earlier failure must not leave it unhandled
    const [clock, data] = await Promise.all([call('GET', 'clock'), call('GET', 'entities')]);
    renderClock(clock);
    state.entities = data;
    renderTree(data);
    const sel = state.selected;
    for (const tab of document.querySelectorAll('.tab')) {
      tab.classList.toggle('active', tab.dataset.tab === state.tab);
      tab.hidden = sel && sel.target.topic && tab.dataset.tab !== 'properties';
    }
    for (const pane of ['messages', 'sessions', 'properties']) $(`#pane-${pane}`).hidden = !sel || state.tab !== pane;
    if (sel) {
      const info = findInfo(data, sel.target);
      if (!info) {
        status(`${pathOf(sel.target)} is gone.`);
      } else {
        sel.info = info;
        if (state.tab === 'messages') await renderMessages(sel.target);
        else if (state.tab === 'sessions') await renderSessions(sel.target);
        else renderProperties(info);
      }
    }
    await panels;
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  } catch (e) {
    status(e.message);
  } finally {
    state.busy = false;
  }
}

/** Runs an action, says what it did (or why it failed), then shows the namespace as it is now. */
async function act(action, done) {
  try {
    await action();
    status('');
    $('#status').textContent = '';
    if (done) $('#status').dataset.last = done;
  } catch (e) {
    status(e.message);
  }
  await waitIdle();
  await refresh();
}

async function waitIdle() {
  while (state.busy) await new Promise((resolve) => setTimeout(resolve, 20));
}

function wire() {
  $('#advance-button').addEventListener('click', () => act(() => call('POST', 'clock/advance', { duration: $('#advance-duration').value.trim() })));
  $('#next-timer-button').addEventListener('click', () => act(() => call('POST', 'clock/advance-to-next')));
  $('#freeze-button').addEventListener('click', () => act(() => call('POST', 'clock/freeze')));
  $('#faults-clear').addEventListener('click', () => act(() => call('DELETE', 'faults'), 'Faults cleared.'));
  $('#fault-add').addEventListener('click', addFault);
  $('#namespace-picker').addEventListener('change', (e) => pickNamespace(e.target.value));
  $('#namespace-picker').addEventListener('focus', loadNamespaces);
  $('#run-button').addEventListener('click', () => act(() => call('POST', 'clock/run')));
  $('#refresh-button').addEventListener('click', () => act(async () => {}));
  $('#body-mode').addEventListener('change', () => act(async () => {}));
  for (const id of ['#journal-entity', '#journal-type']) {
    $(id).addEventListener('change', () => { restartJournal(); act(async () => {}); });
  }
  const purge = $('#purge-button');
  purge.addEventListener('click', () => {
    if (purge.dataset.armed !== 'true') {
      purge.dataset.armed = 'true';
      purge.textContent = 'Purge: click again to confirm';
      return;
    }
    purge.dataset.armed = 'false';
    purge.textContent = 'Purge';
    act(() => call('DELETE', `messages?${query(state.selected.target)}`));
  });
  $('#send-button').addEventListener('click', () => {
    const body = { body: $('#send-body').value };
    for (const [field, id] of [['messageId', '#send-message-id'], ['sessionId', '#send-session-id'], ['timeToLive', '#send-ttl'], ['contentType', '#send-content-type']]) {
      const v = $(id).value.trim();
      if (v) body[field] = v;
    }
    act(() => call('POST', `messages?${new URLSearchParams({ entity: state.selected.target.entity })}`, body));
  });
  for (const tab of document.querySelectorAll('.tab')) {
    tab.addEventListener('click', () => { state.tab = tab.dataset.tab; act(async () => {}); });
  }
  const key = $('#auth-key');
  key.value = sessionStorage.getItem('sbemu.console.authorization') || '';
  key.addEventListener('change', () => {
    if (key.value) sessionStorage.setItem('sbemu.console.authorization', key.value);
    else sessionStorage.removeItem('sbemu.console.authorization');
    state.rights = null;
    loadNamespaces();
    act(async () => {});
  });
}

function live() {
  setTimeout(async () => {
    if ($('#live').checked && !document.hidden) await refresh();
    live();
  }, 2000);
}

wire();
loadNamespaces();
refresh();
live();
