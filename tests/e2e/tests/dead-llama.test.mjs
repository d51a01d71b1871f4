// A real llama.cpp llama-server killed behind a static host (issue 17): the relay knew its
// models, the box is gone. Every request for it gets 424 with X-Should-Retry: false in its own
// shape, and each real client makes one attempt (opencode: its title call and one turn) and
// gives up by itself, counted at a recording proxy and in the relay's journal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePortWhere, startLlamaServer, startRelay } from '../lib/harness.mjs';
import { FIRST_CLIENTS, RETRY_DIGITS, killedMidStream, runCases } from '../lib/refusalcases.mjs';

test('a killed llama-server: 424 in each shape, one attempt per client', { concurrency: true }, async (t) => {
  // The 424 names the box's address: a port with digits opencode and pi retry on would make
  // them retry for that alone (refusal-words.test.mjs).
  const port = await freePortWhere((p) => !RETRY_DIGITS.test(String(p)));
  // One model per client, so that each run is counted apart in the journal, and one for the
  // test's own requests.
  const names = [...FIRST_CLIENTS, 'probe'];
  const llama = await startLlamaServer(t, { port, models: Object.fromEntries(names.map((n) => [n, 'tiny-llama-a'])) });
  const relay = await startRelay(t, { upstreams: { box: llama.url } });
  const aliases = names.map((n) => `box-${n}`);
  await relay.waitForModels(aliases);

  // Served while it lives.
  const served = await fetch(`${relay.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(60000),
    body: JSON.stringify({ model: 'box-probe', max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] }),
  });
  const servedBody = await served.text();
  assert.equal(served.status, 200, servedBody);
  assert.equal(JSON.parse(servedBody).object, 'chat.completion');

  await llama.kill();

  // The relay's answer, in each API's shape.
  const post = (path, body) => fetch(`${relay.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(10000),
    body: JSON.stringify(body),
  });
  const chat = await post('/v1/chat/completions', { model: 'box-probe', messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(chat.status, 424);
  assert.equal(chat.headers.get('x-should-retry'), 'false');
  const chatBody = await chat.json();
  assert.match(chatBody.error.message, /host box is down/);
  assert.equal(typeof chatBody.error.type, 'string');
  const messages = await post('/v1/messages', { model: 'box-probe', max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] });
  assert.equal(messages.status, 424);
  assert.equal(messages.headers.get('x-should-retry'), 'false');
  const messagesBody = await messages.json();
  assert.equal(messagesBody.type, 'error');
  assert.match(messagesBody.error.message, /host box is down/);

  await runCases(t, relay, [
    { status: 424, what: 'its llama-server was killed', model: (client) => `box-${client}` },
  ]);
});

// The same box killed while it streams the answer (issue 32 item 2), for every client of the
// suite: the stream ends with the relay's error event, and no client sends its turn again.
test('a llama-server killed mid-stream: one attempt per client', { concurrency: true },
  (t) => killedMidStream(t, [...FIRST_CLIENTS, 'codex', 'cline', 'qwen']));
