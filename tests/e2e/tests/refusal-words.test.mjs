// The words in a refusal matter as much as its status: opencode and pi retry an error whose text
// looks transient, whatever the status and X-Should-Retry say. So a refusal the relay makes must
// not carry those words, not even as digits in a port number or a model name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFreePort, startFake, startRelay } from '../lib/harness.mjs';

// What makes a client retry whatever the status and X-Should-Retry say: opencode 1.18.33 retries
// an error whose message or body matches these (its session/retry.ts), pi 0.73.1 one whose message
// does (agent-session.js _isRetryableError). The digits match anywhere, ports included.
const OPENCODE_RETRY_WORDS = [
  /429|500|502|503|504|524/i,
  /rate increased too quickly|rate limit|rate-limit|rate_limit|too many requests/i,
  /overloaded|service unavailable|service_unavailable|service-unavailable|internal error|internal_error|internal server error|server error|server_error|server-error|provider returned error/i,
  /terminated|fetch failed|failed to fetch|network[-_\s]error|upstream connect|connection error|connection refused|connection lost|socket connection was closed|socket hang up|reset before headers|getaddrinfo|enotfound|eai_again|econnrefused|econnreset|etimedout/i,
  /^timeout$|\b(?:request|response|connection|network|stream|read) (?:timeout|timed out|time out)\b/i,
  /try your request again|retry your request|resource exhausted|resource_exhausted/i,
  /\btry again (?:later|in\b)|\b(?:currently|temporarily) at capacity\b/i,
];
const PI_RETRY_WORDS = /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;

// A refusal must not read like a transient failure to the clients that match words in it: a host
// on port 5000 or 8502 that is down, or a model called "tiny-500m", must still be one attempt.
test('refusal bodies carry none of the words opencode and pi retry on', async (t) => {
  let closedPort;
  for (const base of [45020, 35020, 25020, 15020, 55020]) {
    for (let p = base; p < base + 10 && !closedPort; ++p) {
      if (await isFreePort(p))
        closedPort = p;
    }
  }
  assert.ok(closedPort, 'a free port with 502 in it');
  const fake = await startFake(t, { models: ['flint-40b', 'tiny-500m'], loaded: ['flint-40b'] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url, down: `http://127.0.0.1:${closedPort}` } });
  await relay.waitForModels(['h1-flint-40b', 'h1-tiny-500m']);
  // The relay's catalog has tried the down host once it says why in its 424.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  const problems = [];
  for (const [model, status] of [['h1-nope', 404], ['down-m', 424]]) {
    for (const path of ['/v1/chat/completions', '/v1/messages']) {
      const res = await fetch(`${relay.url}${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream: true, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
        signal: AbortSignal.timeout(10000),
      });
      const body = await res.text();
      assert.equal(res.status, status);
      assert.equal(res.headers.get('x-should-retry'), 'false');
      const what = `${status} on ${path}: ${body}`;
      const opencodeWord = OPENCODE_RETRY_WORDS.map((re) => body.match(re)?.[0]).find(Boolean);
      if (opencodeWord)
        problems.push(`opencode would retry (on "${opencodeWord}") ${what}`);
      const piWord = body.match(PI_RETRY_WORDS)?.[0];
      if (piWord)
        problems.push(`pi would retry (on "${piWord}") ${what}`);
    }
  }
  assert.deepEqual(problems, []);
});
