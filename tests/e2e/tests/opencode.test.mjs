// Case 3: opencode with the exported config, used as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { jsonLines, scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { installOpencodeConfig, opencodeText, runOpencode } from '../lib/clients.mjs';
import { engineErrors } from '../lib/refusalcases.mjs';

test('opencode run with the exported config completes a turn, and sends no top_p for a minimax-m2 model', async (t) => {
  // minimax-m2 is one of the words opencode 1.18.33 chooses top_p 0.95 by.
  const fake = await startFake(t, {
    models: ['minimax-m2-q4', 'flint-40b'], loaded: ['minimax-m2-q4'],
    extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'minimax-m2-q4=65536'],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-minimax-m2-q4', 'h1-flint-40b']);

  const home = scratchHome(t);
  const configFile = await installOpencodeConfig(t, home, ['--base-url', relay.url, '--model', 'h1-minimax-m2-q4']);
  const models = JSON.parse(readFileSync(configFile, 'utf8')).provider.switchyard.models;
  for (const key of Object.keys(models))
    assert.doesNotMatch(key, /qwen|minimax-m2|gemini|kimi-k2[.p-]5|deepseek-v4-flash/i);
  assert.deepEqual(Object.values(models).map((m) => m.id).sort(), ['h1-flint-40b', 'h1-minimax-m2-q4']);

  // No -m: the exported "model" and "small_model" pick the minimax one for the title and the turn.
  const run = await runOpencode(t, home, configFile);
  assert.equal(run.code, 0, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  assert.match(opencodeText(run), /tok0 tok1/, run.stdout.slice(-2000));
  assert.ok(!jsonLines(run.stdout).some((e) => e.type === 'error'), 'no error event');

  const seen = await fake.inferenceRequests();
  assert.ok(seen.length >= 2, `title and turn: ${seen.length} requests`);
  for (const r of seen) {
    assert.equal(r.json.model, 'minimax-m2-q4');
    // null is what a config can say instead of a number; llama.cpp reads it as "not set".
    assert.ok(r.json.top_p === undefined || r.json.top_p === null, `top_p ${r.json.top_p} reached the box`);
    assert.equal(r.json.top_k, undefined);
    assert.equal(r.json.temperature, undefined);
  }
  assert.ok(seen.some((r) => (r.json.tools ?? []).length > 0), 'the main turn (with tools) was among them');
  assert.ok(seen.every((r) => r.json.max_tokens <= 16384), `max_tokens ${seen.map((r) => r.json.max_tokens)} follow the exported output limit`);
});

// Issue 32, item 2: opencode 1.18.33 sent the whole turn again after an error inside the stream
// whose text said "unavailable", "server_error" or a 5xx number (SessionRetry.retryable). Every
// request here meets the engine's error: a 500, a 400, an error event after two tokens; one
// title call and one turn each.
test('opencode sends its turn once for the engine\'s errors, also one inside the stream', { concurrency: true },
  (t) => engineErrors(t, ['opencode']));
