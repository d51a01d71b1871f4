// Cline's CLI (`cline --json`) with the exported providers.json and global-settings.json: a
// turn through the relay with the model's real context window, and one attempt per refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { clineResult, installClineConfig, runCline } from '../lib/clients.mjs';
import { engineErrors, engineFailsToStart, relayShutsDown, refuseAfterEarly200, refuseBeforeAnswering } from '../lib/refusalcases.mjs';

test('cline with the exported config completes a turn and knows the context window', async (t) => {
  const fake = await startFake(t, {
    models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'flint-40b=65536'],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  const home = scratchHome(t);
  await installClineConfig(t, home, ['--base-url', relay.url]);

  const run = await runCline(t, home);
  const result = clineResult(run);
  assert.ok(result, `cline printed no run_result (exit ${run.code}): ${run.stdout.slice(-2000)} ${run.stderr.slice(-2000)}`);
  assert.equal(result.finishReason, 'completed', JSON.stringify(result).slice(0, 2000));
  assert.match(result.text, /tok0 tok1/);
  // Without the export's contextWindow Cline assumes 128,000 tokens.
  assert.equal(result.model?.info?.contextWindow, 65536, JSON.stringify(result.model));

  const seen = await fake.inferenceRequests();
  assert.ok(seen.length >= 1);
  assert.ok(seen.every((r) => r.path === '/v1/chat/completions' && r.json.model === 'flint-40b'));
});

test('cline makes one attempt on a refusal', { concurrency: true }, (t) => refuseBeforeAnswering(t, ['cline']));

test('cline makes one attempt on a refusal that comes after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t, ['cline']));

// The engine's own errors: a 500 before it answers, a 400, an error event inside its stream.
test('cline makes one attempt on the engine\'s own errors', { concurrency: true },
  (t) => engineErrors(t, ['cline']));

test('cline makes one attempt when the engine fails to start', { concurrency: true },
  (t) => engineFailsToStart(t, ['cline']));

test('cline makes one attempt when the relay shuts down while it waits', { concurrency: true },
  (t) => relayShutsDown(t, ['cline']));
