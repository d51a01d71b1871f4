// Codex (`codex exec`, on the Responses API) with the exported config.toml: a turn through the
// relay that knows the model's real context window, and one attempt per refusal (the relay
// tells Codex a 404, 423 or 424 as a 400, and ends a stream it refuses after its early 200
// with response.failed, the one event Codex does not answer with a repeat; docs/CLIENTS.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_DIR, scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { codexCatalogFile, codexContextWindows, codexNotices, codexText, installCodexConfig, runCodex } from '../lib/clients.mjs';
import { engineErrors, engineFailsToStart, relayShutsDown, refuseAfterEarly200, refuseBeforeAnswering } from '../lib/refusalcases.mjs';

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
// for, and caps the window of such a model at 272,000 tokens. `export codex --catalog FILE` writes
// an entry per relay model: the fallback metadata's values, the model's n_ctx, and, since an entry
// must carry a base prompt that Codex then sends verbatim, Codex 0.169.0's own built-in one
// (resources/codex/prompt-0.169.0.md; docs/CLIENTS.md, "Codex"). Pinned, with a model whose n_ctx
// (400,000) is above that cap:
//  1. the exported config without the catalog: the warning, the capped window, and Codex's
//     built-in prompt as the first developer message; Codex never asks the relay for its models;
//  2. with the catalog, unmodified: no warning, 95 % of n_ctx, and the same request: the same base
//     prompt byte for byte (a Codex whose built-in prompt is another text fails here), the same
//     tools and settings, but for the spawn_agent tool's list of OpenAI's models, which the
//     catalog takes the place of;
//  3. an entry without base_instructions: Codex refuses the catalog and does not start.
test('codex: the exported model catalog takes the metadata warning away and sends what Codex sends without it', async (t) => {
  const nCtx = 400000;
  const fake = await startFake(t, {
    models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', `flint-40b=${nCtx}`],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  const warning = /^Model metadata for `h1-flint-40b` not found\. Defaulting to fallback metadata/;
  const run = async (catalog, edit) => {
    await fake.reset();
    const home = scratchHome(t);
    await installCodexConfig(t, home, ['--base-url', relay.url], { catalog });
    edit?.(home);
    const result = await runCodex(t, home);
    return { ...result, home, requests: await fake.inferenceRequests() };
  };
  const firstDeveloperText = (request) => {
    const message = (request.json.input ?? []).find((m) => m.role === 'developer');
    return (message?.content ?? []).map((c) => c.text ?? '').join('');
  };
  // A request with what differs from run to run (ids, times, the scratch HOME, the order of
  // client_metadata's keys) made the same, and the spawn_agent tool's list of models taken out.
  const comparable = (request, home) => {
    const same = (v) => {
      if (Array.isArray(v))
        return v.map(same);
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.keys(v).sort().map((k) => [k, same(v[k])]));
      if (typeof v !== 'string')
        return v;
      return v.split(home).join('HOME')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
        .replace(/\d{13}/g, 'MS')
        .replace(/Available model overrides \(optional[^\n]*\n(- `[^`]+`:[^\n]*\n)+|No picker-visible model overrides are currently loaded\.\n/g, 'MODELS\n');
    };
    return JSON.stringify(same(request.json), null, 1).split('\n');
  };

  // 1. Without the catalog.
  const plain = await run(false);
  assert.equal(plain.code, 0, `${plain.stdout.slice(-2000)} ${plain.stderr.slice(-2000)}`);
  assert.match(codexText(plain), /tok0 tok1/);
  assert.equal(codexNotices(plain).filter((m) => warning.test(m)).length, 1, codexNotices(plain).join('\n'));
  assert.deepEqual([...new Set(codexContextWindows(plain.home))], [Math.floor(272000 * 0.95)]);
  assert.equal(plain.requests.length, 1);
  const builtIn = firstDeveloperText(plain.requests[0]);
  assert.ok(builtIn.startsWith('You are a coding agent running in the Codex CLI'), builtIn.slice(0, 200));
  assert.equal(relay.journal().filter((e) => e.method === 'GET' && /ua="codex_/.test(e.line)).length, 0,
    'Codex asks a provider with an env_key for no model list');

  // 2. With the catalog, as exported.
  const cataloged = await run(true);
  assert.equal(cataloged.code, 0, `${cataloged.stdout.slice(-2000)} ${cataloged.stderr.slice(-2000)}`);
  assert.match(codexText(cataloged), /tok0 tok1/);
  assert.deepEqual(codexNotices(cataloged).filter((m) => warning.test(m)), []);
  assert.deepEqual([...new Set(codexContextWindows(cataloged.home))], [Math.floor(nCtx * 0.95)]);
  assert.equal(cataloged.requests.length, 1);
  const sent = firstDeveloperText(cataloged.requests[0]);
  assert.equal(sent.length, builtIn.length, 'the base prompt with the catalog is as long as Codex\'s own');
  assert.ok(sent === builtIn, 'the base prompt with the catalog is Codex\'s own, byte for byte');
  // The export's prompt is the one in resources/, and that is what this Codex sends.
  const shipped = readFileSync(path.join(E2E_DIR, '..', '..', 'resources', 'codex', 'prompt-0.169.0.md'), 'utf8');
  assert.ok(shipped === builtIn, 'resources/codex/prompt-0.169.0.md is the pinned Codex\'s built-in prompt');
  const [withCatalog, without] = [comparable(cataloged.requests[0], cataloged.home), comparable(plain.requests[0], plain.home)];
  const differing = withCatalog.map((line, i) => [i, line]).filter(([i, line]) => line !== without[i]);
  assert.deepEqual(differing.map(([i, line]) => `${i}: ${line.slice(0, 300)} | ${(without[i] ?? '').slice(0, 300)}`), [],
    'with the catalog Codex sends the request it sends without it');
  assert.equal(withCatalog.length, without.length);
  assert.match(JSON.stringify(plain.requests[0].json.tools), /Available model overrides/);
  assert.match(JSON.stringify(cataloged.requests[0].json.tools), /No picker-visible model overrides/);

  // 3. An entry without base_instructions: the whole catalog is refused, Codex does not start.
  const refused = await run(true, (home) => {
    const file = codexCatalogFile(home);
    const catalog = JSON.parse(readFileSync(file, 'utf8'));
    for (const m of catalog.models)
      delete m.base_instructions;
    writeFileSync(file, JSON.stringify(catalog));
  });
  assert.equal(refused.code, 1, refused.stderr.slice(-2000));
  assert.match(refused.stderr, /model `h1-flint-40b` is missing both `base_instructions` and `model_messages\.instructions_template`/);
  assert.equal(refused.requests.length, 0);
});

// With the exported config, with its model catalog too, and with Codex's own retry settings (five repeats of anything but a
// 400 or a response.failed it gives up at): one request each way.
test('codex makes one attempt on a refusal', { concurrency: true },
  (t) => refuseBeforeAnswering(t, ['codex', 'codex-catalog', 'codex-own-retries']));

test('codex makes one attempt on a refusal that comes after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t, ['codex', 'codex-catalog', 'codex-own-retries']));

// The engine's own errors: a 500 before it answers, a 400, an error event inside its stream.
test('codex makes one attempt on the engine\'s own errors', { concurrency: true },
  (t) => engineErrors(t, ['codex', 'codex-own-retries']));

test('codex makes one attempt when the engine fails to start', { concurrency: true },
  (t) => engineFailsToStart(t, ['codex', 'codex-catalog', 'codex-own-retries']));

test('codex makes one attempt when the relay shuts down while it waits', { concurrency: true },
  (t) => relayShutsDown(t, ['codex', 'codex-catalog', 'codex-own-retries']));
