// Qwen Code (`qwen -p`) with the exported ~/.qwen/settings.json: a turn through the relay, and
// one attempt per refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { installQwenSettings, qwenResult, runQwen } from '../lib/clients.mjs';
import { engineErrors, engineFailsToStart, relayShutsDown, refuseAfterEarly200, refuseBeforeAnswering } from '../lib/refusalcases.mjs';

test('qwen -p with the exported settings.json completes a turn', async (t) => {
  const fake = await startFake(t, {
    models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'flint-40b=65536'],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  const home = scratchHome(t);
  const dir = await installQwenSettings(t, home, ['--base-url', relay.url]);
  const settings = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8'));
  assert.equal(settings.model.generationConfig.contextWindowSize, 65536);

  const run = await runQwen(t, home);
  const result = qwenResult(run);
  assert.ok(result, `qwen printed no result (exit ${run.code}): ${run.stdout.slice(-2000)} ${run.stderr.slice(-2000)}`);
  assert.equal(result.is_error, false, JSON.stringify(result).slice(0, 2000));
  assert.match(result.result, /tok0 tok1/);

  const seen = await fake.inferenceRequests();
  assert.ok(seen.length >= 1);
  assert.ok(seen.every((r) => r.path === '/v1/chat/completions' && r.json.model === 'flint-40b'));
});

test('qwen makes one attempt on a refusal', { concurrency: true }, (t) => refuseBeforeAnswering(t, ['qwen']));

test('qwen makes one attempt on a refusal that comes after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t, ['qwen']));

// The engine's own errors: a 500 before it answers, a 400, an error event inside its stream.
test('qwen makes one attempt on the engine\'s own errors', { concurrency: true },
  (t) => engineErrors(t, ['qwen']));

test('qwen makes one attempt when the engine fails to start', { concurrency: true },
  (t) => engineFailsToStart(t, ['qwen']));

test('qwen makes one attempt when the relay shuts down while it waits', { concurrency: true },
  (t) => relayShutsDown(t, ['qwen']));
