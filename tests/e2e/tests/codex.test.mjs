// Codex (`codex exec`, on the Responses API) with the exported config.toml: a turn through the
// relay that knows the model's real context window, and one attempt per refusal (the relay
// tells Codex a 404, 423 or 424 as a 400, and ends a stream it refuses after its early 200
// with response.failed, the one event Codex does not answer with a repeat; docs/CLIENTS.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { codexContextWindows, codexNotices, codexText, installCodexConfig, runCodex } from '../lib/clients.mjs';
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

// Codex 0.169 says "Model metadata for `ALIAS` not found" for every model it has no catalog entry
// for, and no config can give it one without a prompt text (docs/CLIENTS.md, "Codex"). What the
// export can and cannot do, pinned, so that a Codex that changes any of it fails here:
//  1. the exported config: the warning, the real window, and Codex's built-in prompt sent as the
//     first developer message; Codex never asks the relay for its models;
//  2. a catalog entry (model_catalog_json) with every field but an empty base_instructions: no
//     warning, the real window, but no built-in prompt in the request: Codex sends the entry's
//     text verbatim and has no fallback for an empty one;
//  3. the same entry without base_instructions: Codex refuses to start.
test('codex: the model metadata warning, and why the export cannot take it away', async (t) => {
  const fake = await startFake(t, {
    models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'flint-40b=65536'],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  const warning = /^Model metadata for `h1-flint-40b` not found\. Defaulting to fallback metadata/;
  const developerTexts = (request) => (request.json.input ?? [])
    .filter((m) => m.role === 'developer' || m.role === 'system')
    .map((m) => (m.content ?? []).map((c) => c.text ?? '').join(''));
  const run = async (catalogEntry) => {
    await fake.reset();
    const home = scratchHome(t);
    const dir = await installCodexConfig(t, home, ['--base-url', relay.url]);
    if (catalogEntry) {
      const catalog = path.join(dir, 'catalog.json');
      writeFileSync(catalog, JSON.stringify({ models: [catalogEntry] }));
      const toml = readFileSync(path.join(dir, 'config.toml'), 'utf8');
      writeFileSync(path.join(dir, 'config.toml'), `model_catalog_json = ${JSON.stringify(catalog)}\n${toml}`);
    }
    const result = await runCodex(t, home);
    return { ...result, home, requests: await fake.inferenceRequests() };
  };

  // 1. As exported.
  const exported = await run(null);
  assert.equal(exported.code, 0, `${exported.stdout.slice(-2000)} ${exported.stderr.slice(-2000)}`);
  assert.match(codexText(exported), /tok0 tok1/);
  assert.equal(codexNotices(exported).filter((m) => warning.test(m)).length, 1, codexNotices(exported).join('\n'));
  assert.deepEqual([...new Set(codexContextWindows(exported.home))], [Math.floor(65536 * 0.95)]);
  assert.equal(exported.requests.length, 1);
  const builtIn = developerTexts(exported.requests[0]).find((text) => text.length > 10000);
  assert.ok(builtIn, `Codex's built-in prompt is the first developer message: ${developerTexts(exported.requests[0]).map((x) => x.length)}`);
  assert.equal(relay.journal().filter((e) => e.method === 'GET' && /ua="codex_/.test(e.line)).length, 0,
    'Codex asks a provider with an env_key for no model list');

  // 2. A catalog entry with every field Codex requires, its instructions empty.
  const entry = {
    slug: 'h1-flint-40b', display_name: 'h1-flint-40b', supported_reasoning_levels: [], shell_type: 'default',
    visibility: 'list', supported_in_api: true, priority: 0, support_verbosity: false,
    truncation_policy: { mode: 'bytes', limit: 10000 }, experimental_supported_tools: [],
    context_window: 65536, max_context_window: 65536, base_instructions: '',
  };
  const empty = await run(entry);
  assert.equal(empty.code, 0, `${empty.stdout.slice(-2000)} ${empty.stderr.slice(-2000)}`);
  assert.match(codexText(empty), /tok0 tok1/);
  assert.deepEqual(codexNotices(empty).filter((m) => warning.test(m)), []);
  assert.deepEqual([...new Set(codexContextWindows(empty.home))], [Math.floor(65536 * 0.95)]);
  assert.equal(empty.requests.length, 1);
  const head = builtIn.slice(0, 200);
  assert.ok(!developerTexts(empty.requests[0]).some((text) => text.includes(head)),
    'with an empty base_instructions Codex sends none of its built-in prompt');

  // 3. The same entry without instructions: the whole catalog is refused, Codex does not start.
  const { base_instructions: _, ...bare } = entry;
  const refused = await run(bare);
  assert.equal(refused.code, 1, refused.stderr.slice(-2000));
  assert.match(refused.stderr, /model `h1-flint-40b` is missing both `base_instructions` and `model_messages\.instructions_template`/);
  assert.equal(refused.requests.length, 0);
});

// With the exported config, and with Codex's own retry settings (five repeats of anything but a
// 400 or a response.failed it gives up at): one request each way.
test('codex makes one attempt on a refusal', { concurrency: true },
  (t) => refuseBeforeAnswering(t, ['codex', 'codex-own-retries']));

test('codex makes one attempt on a refusal that comes after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t, ['codex', 'codex-own-retries']));
