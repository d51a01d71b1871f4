// Case 5: the relay's refusals carry X-Should-Retry: false in a status no client retries by
// itself, so each client makes exactly one attempt and gives up at once:
//   404  unknown model
//   424  its host is down (an --upstream on a closed port)
//   423  a lease owns the host's GPU (taken through the relay's admin API, as `switchyard lease` does)
//
// Attempts are counted at a recording layer between each client and the relay, and checked
// against the relay's own journal lines. Every client run gets its own model name, so the runs
// share one relay and go in parallel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { baseEnv, freePortWhere, scratchDir, scratchHome, startFake, startRecorder, startRelay } from '../lib/harness.mjs';
import { installClaudeSettings, installOpencodeConfig, installPiModels, piLastAssistant, runClaude, runOpencode, runPi } from '../lib/clients.mjs';

const CASES = [
  { status: 404, what: 'unknown model', alias: (client) => `h1-nope-${client}` },
  { status: 424, what: 'host down', alias: (client) => `down-m-${client}` },
  { status: 423, what: 'host leased', alias: (client) => `busy-${client}` },
];

// A port with none of the digits opencode and pi retry on (see refusal-words.test.mjs).
const RETRY_DIGITS = /429|500|502|503|504|524/;

const isInference = (r) => r.method === 'POST' && /\/(chat\/completions|messages)$/.test(r.path);

// A model list for `switchyard export --list`, naming a model the relay will refuse.
function listFile(t, alias) {
  const file = path.join(scratchDir(t), 'models.json');
  writeFileSync(file, JSON.stringify({ object: 'list', data: [{ id: alias, object: 'model' }] }));
  return file;
}

// Each runs one client against baseUrl until it gives up; `gaveUp` says it did so by itself.
const CLIENTS = {
  async openai(t, baseUrl, model) {
    const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'switchyard', timeout: 30000 });
    const error = await client.chat.completions
      .create({ model, stream: true, messages: [{ role: 'user', content: 'say hi' }] })
      .then(async (stream) => { for await (const _ of stream); }, (e) => e);
    return { gaveUp: error instanceof OpenAI.APIError, detail: String(error) };
  },
  async anthropic(t, baseUrl, model) {
    const client = new Anthropic({ baseURL: baseUrl, apiKey: 'switchyard', timeout: 30000 });
    const error = await client.messages
      .create({ model, max_tokens: 32, stream: true, messages: [{ role: 'user', content: 'say hi' }] })
      .then(async (stream) => { for await (const _ of stream); }, (e) => e);
    return { gaveUp: error instanceof Anthropic.APIError, detail: String(error) };
  },
  async 'claude-code'(t, baseUrl, model) {
    const home = scratchHome(t);
    await installClaudeSettings(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)]);
    const run = await runClaude(t, home, baseEnv(home), { timeoutMs: 60000 });
    return { gaveUp: !run.timedOut && run.code !== 0, detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)}` };
  },
  async opencode(t, baseUrl, model) {
    const home = scratchHome(t);
    const configFile = await installOpencodeConfig(t, home, ['--base-url', baseUrl, '--list', listFile(t, model)]);
    const run = await runOpencode(t, home, configFile, { timeoutMs: 60000 });
    return { gaveUp: !run.timedOut, detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}` };
  },
  async pi(t, baseUrl, model) {
    const home = scratchHome(t);
    const agentDir = await installPiModels(t, home, ['--base-url', baseUrl, '--list', listFile(t, model)]);
    const run = await runPi(t, home, agentDir, model);
    const message = piLastAssistant(run);
    return { gaveUp: !run.timedOut && message?.stopReason === 'error', detail: `${run.ms} ms: ${JSON.stringify(message)?.slice(0, 500)}` };
  },
};

test('each client makes one attempt on a refusal', { concurrency: true }, async (t) => {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'] });
  // The relay names the host's address in its 424; a port such as 45029 would by itself make
  // opencode and pi retry (refusal-words.test.mjs), so this one has no such digits.
  const closedPort = await freePortWhere((port) => !RETRY_DIGITS.test(String(port)));
  // A second box whose GPU a lease owns; one model per client so each run is counted apart.
  const busy = await startFake(t, { models: Object.keys(CLIENTS), loaded: [] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url, down: `http://127.0.0.1:${closedPort}`, busy: busy.url } });
  await relay.waitForModels(['h1-flint-40b', ...Object.keys(CLIENTS).map((c) => `busy-${c}`)]);
  const lease = await fetch(`${relay.url}/admin/hosts/busy/lease`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner: 'e2e bench queue', ttl_s: 600 }),
  });
  assert.equal(lease.status, 200, await lease.text());

  const runs = [];
  for (const [client, run] of Object.entries(CLIENTS)) {
    for (const { status, what, alias } of CASES) {
      const model = alias(client);
      runs.push(t.test(`${client}: ${status} (${what})`, async (st) => {
        const recorder = await startRecorder(st, relay.url);
        const outcome = await run(st, recorder.url, model);
        assert.ok(outcome.gaveUp, `${client} gave up by itself: ${outcome.detail}`);

        const attempts = recorder.seen.filter((r) => isInference(r) && r.json?.model === model);
        // The journal writes its lines within 10 ms of the answer: wait for as many as were sent.
        const logged = await relay.waitForPosts(Math.max(1, attempts.length), (e) => e.model === model);
        assert.ok(logged.length > 0 && logged.every((e) => e.status === status), logged.map((e) => e.line).join('\n'));
        assert.equal(logged.length, attempts.length, 'the journal counts what the client sent');
        const list = attempts.map((r) => `${r.path} stream=${r.json.stream} tools=${(r.json.tools ?? []).length}`).join(', ');
        if (client === 'opencode') {
          // Two calls of its own: the session title (no tools) and the turn (tools). One attempt each.
          assert.equal(attempts.filter((r) => (r.json.tools ?? []).length > 0).length, 1, list);
          assert.ok(attempts.filter((r) => (r.json.tools ?? []).length === 0).length <= 1, list);
        } else if (client === 'claude-code' && status === 404) {
          // Claude Code 2.1.197 answers any 404 on a streaming request by sending it once more
          // without streaming ("Streaming endpoint returned 404, falling back to non-streaming
          // mode"): one attempt per mode, not a retry loop.
          assert.equal(attempts.filter((r) => r.json.stream === true).length, 1, list);
          assert.ok(attempts.filter((r) => r.json.stream !== true).length <= 1, list);
        } else {
          assert.equal(attempts.length, 1, list);
        }
        // The client never came back for more after giving up.
        assert.equal(recorder.seen.filter((r) => isInference(r)).length, attempts.length);
      }));
    }
  }
  await Promise.all(runs);
  assert.ok(fake.child.lines.length >= 1);
  assert.equal((await fake.inferenceRequests()).length, 0, 'no refused request reached the box');
  assert.equal((await busy.inferenceRequests()).length, 0, 'no request reached the leased box');
});
