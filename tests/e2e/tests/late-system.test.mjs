// Case 7: Claude Code against a chat template that refuses a system message after the first one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { claudeEnv, claudeResult, runClaude } from '../lib/clients.mjs';

const ALIAS = 'h1-flint-40b';

async function fleet(t, extraArgs = []) {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', ...extraArgs] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels([ALIAS]);
  return { fake, relay };
}

// Case 7. Claude Code puts a role:"system" message inside `messages` for a model id it does not
// know; a template that refuses it answers llama.cpp's Jinja 500, which the relay rewrites into the
// 400 Claude Code acts on: it folds the system text into the user turn and sends once more.
test('claude -p recovers from a chat template that refuses a late system message', async (t) => {
  const { fake, relay } = await fleet(t, ['--reject-late-system']);
  const home = scratchHome(t);
  const run = await runClaude(t, home, claudeEnv(home, relay.url, ALIAS));
  const result = claudeResult(run);
  // 2.1.197 falls back on a 400 whose message has "not supported" and "role 'system'" (see
  // docs/CLIENTS.md); the rewrite must say both that and "must precede an assistant message".
  assert.equal(result.is_error, false, `claude reported: ${result.result}`);
  assert.equal(run.code, 0, run.stderr);
  assert.match(result.result, /tok0 tok1/);

  const seen = await fake.inferenceRequests();
  const hasLateSystem = (r) => (r.json.messages ?? []).some((m) => m.role === 'system');
  assert.equal(seen.length, 2, `requests at the box: ${seen.map((r) => r.status).join(', ')}`);
  assert.ok(hasLateSystem(seen[0]), 'the first request carried a system message inside messages');
  assert.equal(seen[0].status, 500, 'the box refused it');
  assert.ok(!hasLateSystem(seen[1]), 'the second folded it into the user turn');
  assert.equal(seen[1].status, 200);
  const posts = await relay.waitForPosts(2, (e) => e.target.startsWith('/v1/messages'));
  assert.deepEqual(posts.map((e) => e.status), [400, 200], 'the client saw the rewritten 400, then success');
});
