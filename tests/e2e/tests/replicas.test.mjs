// A replicated alias with one replica down (docs/HOSTS.md, "Replicas and failover"): two fake
// boxes serve the same model under `coder`; the first-listed one (ties go to it) is killed after
// the relay has read both, so the relay still thinks it up. The real opencode and Claude Code each
// complete a turn through `coder` with no error: the relay meets the refused connection before
// the first byte, fails over to the other box and says so in its journal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { baseEnv, isFreePort, jsonLines, scratchDir, scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { claudeResult, installClaudeSettings, installOpencodeConfig, opencodeText, runClaude, runOpencode } from '../lib/clients.mjs';

const ALIAS = 'coder';
const FAILOVER = /host h1: failover of coder to h2-flint-40b: /;

async function fleetWithDeadReplica(t) {
  const fakeArgs = { models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'flint-40b=65536'] };
  const h1 = await startFake(t, fakeArgs);
  const h2 = await startFake(t, fakeArgs);
  const dir = scratchDir(t, 'switchyard-e2e-replicas-');
  const relay = await startRelay(t, { config: {
    state_dir: path.join(dir, 'state'),
    hosts: {
      h1: { driver: 'static', engines: { main: { url: h1.url } } },
      h2: { driver: 'static', engines: { main: { url: h2.url } } },
    },
    aliases: { [ALIAS]: ['h1-flint-40b', 'h2-flint-40b'] },
  } });
  await relay.waitForModels(['h1-flint-40b', 'h2-flint-40b', ALIAS]);
  const listed = (await relay.models()).find((m) => m.id === ALIAS);
  assert.deepEqual(listed.proxy.replicas.map((r) => r.host).sort(), ['h1', 'h2'], JSON.stringify(listed.proxy));

  // h1 dies between two of the relay's polls (every 30 s): nothing listens on its port any more.
  const port = Number(new URL(h1.url).port);
  h1.child.kill();
  await h1.child.exited;
  const until = Date.now() + 10000;
  while (!(await isFreePort(port))) {
    assert.ok(Date.now() < until, `port ${port} still taken 10 s after the fake was killed`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { h2, relay };
}

// The client's turns in the journal: every one for `coder`, answered 200 by h2; the relay's
// failover line for the dead h1 before them.
async function assertServedByTheLiveReplica(relay, h2) {
  const posts = await relay.waitForPosts(1, (e) => e.model === ALIAS);
  assert.ok(posts.length >= 1, `no POST for ${ALIAS} in the journal:\n${relay.child.lines.join('\n')}`);
  for (const p of posts) {
    assert.equal(p.host, 'h2', p.line);
    assert.equal(p.status, 200, p.line);
  }
  const failovers = relay.child.lines.filter((l) => FAILOVER.test(l));
  assert.ok(failovers.length >= 1, `no failover line:\n${relay.child.lines.join('\n')}`);
  assert.match(failovers[0], /refused/i);
  // The list names the live replica for the alias now, and the dead one not as loaded.
  const listed = (await relay.models()).find((m) => m.id === ALIAS);
  assert.equal(listed.proxy.host, 'h2', JSON.stringify(listed.proxy));
  const dead = listed.proxy.replicas.find((r) => r.host === 'h1');
  assert.notEqual(dead?.status?.value ?? dead?.status, 'loaded', JSON.stringify(listed.proxy));
  const seen = await h2.inferenceRequests();
  assert.ok(seen.length >= posts.length, `h2 saw ${seen.length} requests for ${posts.length} journal lines`);
  assert.ok(seen.every((r) => r.json.model === 'flint-40b'), 'the box sees only its key');
}

test('opencode completes a turn through a replicated alias while one replica is down', async (t) => {
  const { h2, relay } = await fleetWithDeadReplica(t);
  const home = scratchHome(t);
  const configFile = await installOpencodeConfig(t, home, ['--base-url', relay.url, '--model', ALIAS]);
  const run = await runOpencode(t, home, configFile);
  assert.equal(run.code, 0, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  assert.match(opencodeText(run), /tok0 tok1/, run.stdout.slice(-2000));
  assert.ok(!jsonLines(run.stdout).some((e) => e.type === 'error'), 'no error event');
  await assertServedByTheLiveReplica(relay, h2);
});

test('Claude Code completes a turn through a replicated alias while one replica is down', async (t) => {
  const { h2, relay } = await fleetWithDeadReplica(t);
  const home = scratchHome(t);
  await installClaudeSettings(t, home, ['--base-url', relay.url, '--model', ALIAS]);
  const run = await runClaude(t, home, baseEnv(home));
  const result = claudeResult(run);
  assert.equal(result.is_error, false, `claude reported: ${result.result}`);
  assert.equal(run.code, 0, run.stderr);
  assert.match(result.result, /tok0 tok1/);
  // The window of the replicas' engine, exported for the alias.
  for (const [model, u] of Object.entries(result.modelUsage ?? {}))
    assert.equal(u.contextWindow, 65536, `${model}: ${JSON.stringify(u)}`);
  await assertServedByTheLiveReplica(relay, h2);
});
