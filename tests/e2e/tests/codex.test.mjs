// Codex (`codex exec`, on the Responses API) with the exported config.toml: a turn through the
// relay that knows the model's real context window, and one attempt per refusal (the relay
// tells Codex a 404, 423 or 424 as a 400, and ends a stream it refuses after its early 200
// with response.failed, the one event Codex does not answer with a repeat; docs/CLIENTS.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { codexContextWindows, codexText, installCodexConfig, runCodex } from '../lib/clients.mjs';
import { refuseAfterEarly200, refuseBeforeAnswering } from '../lib/refusalcases.mjs';

test('codex exec with the exported config.toml completes a turn and knows the context window', async (t) => {
  const fake = await startFake(t, {
    models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'flint-40b=65536'],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  const home = scratchHome(t);
  const dir = await installCodexConfig(t, home, ['--base-url', relay.url]);
  const toml = readFileSync(path.join(dir, 'config.toml'), 'utf8');
  assert.match(toml, /^model_context_window = 65536$/m);

  const run = await runCodex(t, home);
  assert.equal(run.code, 0, `${run.stdout.slice(-2000)} ${run.stderr.slice(-2000)}`);
  assert.match(codexText(run), /tok0 tok1/);
  // Codex keeps 5 % of the window free and uses the rest: 95 % of the engine's n_ctx, not of
  // the 272,000 tokens it assumes for a model it has no metadata for.
  const windows = codexContextWindows(home);
  assert.ok(windows.length >= 1, 'Codex wrote its session with the context window');
  assert.deepEqual([...new Set(windows)], [Math.floor(65536 * 0.95)]);

  const seen = await fake.inferenceRequests();
  assert.equal(seen.length, 1);
  assert.equal(seen[0].path, '/v1/responses');
  assert.equal(seen[0].json.model, 'flint-40b');
  const logged = await relay.waitForPosts(1, (e) => e.model === 'h1-flint-40b');
  assert.match(logged[0].line, /POST \/v1\/responses .*status=200/);
  // The relay counted the answer's tokens from response.completed (the history and /metrics).
  const metrics = await (await fetch(`${relay.url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  const streamed = metrics.split('\n').filter((l) => l.startsWith('switchyard_streamed_tokens_total{') && l.includes('"h1-flint-40b"'));
  assert.equal(streamed.length, 1, metrics);
  assert.equal(Number(streamed[0].split(' ').pop()), 8, streamed[0]);
});

// With the exported config, and with Codex's own retry settings (five repeats of anything but a
// 400 or a response.failed it gives up at): one request each way.
test('codex makes one attempt on a refusal', { concurrency: true },
  (t) => refuseBeforeAnswering(t, ['codex', 'codex-own-retries']));

test('codex makes one attempt on a refusal that comes after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t, ['codex', 'codex-own-retries']));
