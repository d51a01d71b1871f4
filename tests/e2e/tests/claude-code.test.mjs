// Case 2: Claude Code, headless (`claude -p`), through the relay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseEnv, scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { claudeEnv, claudeResult, installClaudeSettings, runClaude } from '../lib/clients.mjs';

const ALIAS = 'h1-flint-40b';

async function fleet(t, extraArgs = []) {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', ...extraArgs] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels([ALIAS]);
  return { fake, relay };
}

test('claude -p completes a turn through the relay', async (t) => {
  const { fake, relay } = await fleet(t);
  const home = scratchHome(t);
  const run = await runClaude(t, home, claudeEnv(home, relay.url, ALIAS));
  const result = claudeResult(run);
  assert.equal(result.is_error, false, `claude reported: ${result.result}`);
  assert.equal(run.code, 0, run.stderr);
  assert.match(result.result, /tok0 tok1/);
  const seen = await fake.inferenceRequests();
  assert.ok(seen.length >= 1);
  assert.ok(seen.every((r) => r.json.model === 'flint-40b'), 'the box sees only its key');
});

test('the exported claude-code settings, unmodified, complete a turn with only the alias', async (t) => {
  const { fake, relay } = await fleet(t, ['--model-ctx', 'flint-40b=65536']);
  const home = scratchHome(t);
  await installClaudeSettings(t, home, ['--base-url', relay.url, '--model', ALIAS]);

  // Nothing of Claude Code's own in the environment: the settings file is all it gets.
  const run = await runClaude(t, home, baseEnv(home));
  const result = claudeResult(run);
  assert.equal(result.is_error, false, `claude reported: ${result.result}`);
  assert.equal(run.code, 0, run.stderr);
  assert.match(result.result, /tok0 tok1/);
  // The engine's n_ctx, not the 200,000 tokens Claude Code assumes for a model it does not know
  // (CLAUDE_CODE_MAX_CONTEXT_TOKENS in the exported env).
  const usage = Object.entries(result.modelUsage ?? {});
  assert.ok(usage.length >= 1, JSON.stringify(result).slice(0, 2000));
  for (const [model, u] of usage)
    assert.equal(u.contextWindow, 65536, `${model}: ${JSON.stringify(u)}`);

  await relay.waitForPosts(1, (e) => e.model !== '');   // journal lines follow within 10 ms
  const asked = relay.journal().filter((e) => e.model !== '');
  assert.ok(asked.length >= 1, 'the relay relayed the turn');
  assert.deepEqual([...new Set(asked.map((e) => e.model))], [ALIAS], `models asked for:\n${asked.map((e) => e.line).join('\n')}`);
  const models = (await fake.requests())
    .map((r) => r.json?.model ?? new URLSearchParams(r.query ?? '').get('model'))
    .filter(Boolean);
  assert.ok(models.length >= 1);
  assert.deepEqual([...new Set(models)], ['flint-40b'], 'the box sees only the key');
});
