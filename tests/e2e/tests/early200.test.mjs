// Case 6: a streaming request that waits (here: the box loads the model for 5 s) gets the
// relay's own 200 and SSE comments early, so a client with a short headers timeout keeps
// waiting; the same client straight at the box gives up with UND_ERR_HEADERS_TIMEOUT.
// Node's own fetch waits 300 s for headers; a 2.5 s headersTimeout on an undici Agent and a 0.5 s
// early 200 make the same race fit in a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, fetch } from 'undici';
import { startFake, startRelay } from '../lib/harness.mjs';

const HEADERS_TIMEOUT_MS = 2500;

async function streamChat(baseUrl, model) {
  const dispatcher = new Agent({ headersTimeout: HEADERS_TIMEOUT_MS, bodyTimeout: HEADERS_TIMEOUT_MS });
  try {
    const started = Date.now();
    const res = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'say hi' }] }),
      signal: AbortSignal.timeout(30000),
    });
    const headersAfterMs = Date.now() - started;
    const body = await res.text();
    // The streamed answer's text, from its `data:` events.
    const text = body.split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '')
      .join('');
    return { status: res.status, headersAfterMs, body, text, ms: Date.now() - started };
  } finally {
    await dispatcher.close();
  }
}

test('the early 200 keeps a client with a 2.5 s headers timeout waiting through a 5 s load', async (t) => {
  const fake = await startFake(t, {
    models: ['slow-a', 'slow-b'], extraArgs: ['--load-ms', '5000', '--max-reply-tokens', '6'],
  });
  const relay = await startRelay(t, {
    config: {
      hosts: { h1: { driver: 'static', engines: { main: { url: fake.url } } } },
      waiting: { early_200_after_s: 0.5, comment_every_s: 0.5 },
    },
  });
  await relay.waitForModels(['h1-slow-a', 'h1-slow-b']);

  const [viaRelay, direct] = await Promise.all([
    streamChat(relay.url, 'h1-slow-a'),
    streamChat(fake.url, 'slow-b').then(() => assert.fail('the direct request should have timed out'), (e) => e),
  ]);

  assert.equal(viaRelay.status, 200);
  assert.ok(viaRelay.headersAfterMs < HEADERS_TIMEOUT_MS, `headers after ${viaRelay.headersAfterMs} ms`);
  assert.ok(viaRelay.ms >= 4000, `the load took its time (${viaRelay.ms} ms)`);
  assert.match(viaRelay.body, /^: /m, 'SSE comments while waiting');
  assert.match(viaRelay.text, /tok0 tok1/);
  assert.match(viaRelay.body, /data: \[DONE\]/);

  assert.equal(direct.cause?.code ?? direct.code, 'UND_ERR_HEADERS_TIMEOUT', String(direct.cause ?? direct));
});
