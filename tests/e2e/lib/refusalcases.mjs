// What the refusal tests share: each real client run until it gives up on a refusal, and the
// count of its attempts, recorded between the client and the relay and checked against the
// relay's journal (refusals.test.mjs with the fake router, dead-llama.test.mjs with the real
// llama-server).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { cellFile } from '../tools/refusal-table.mjs';
import { baseEnv, freePortWhere, scratchDir, scratchHome, startFake, startLlamaServer, startRecorder, startRelay } from './harness.mjs';
import {
  claudeEnv, clineResult, installClaudeSettings, installClineConfig, installCodexConfig, installOpencodeConfig, installPiModels,
  installQwenSettings, piLastAssistant, qwenResult, runClaude, runCline, runCodex, runOpencode, runPi, runQwen,
} from './clients.mjs';

// A port with none of the digits opencode and pi retry on (see refusal-words.test.mjs).
export const RETRY_DIGITS = /429|500|502|503|504|524/;

export const isInference = (r) => r.method === 'POST' && /\/(chat\/completions|messages|responses)$/.test(r.path);

// A model list for `switchyard export --list`, naming a model the relay will refuse.
function listFile(t, alias) {
  const file = path.join(scratchDir(t), 'models.json');
  writeFileSync(file, JSON.stringify({ object: 'list', data: [{ id: alias, object: 'model' }] }));
  return file;
}

// A client the relay does not recognise (a User-Agent of its own), as plain as they come: it
// sends the request again after a 5xx or a 429 (waiting what Retry-After says, 3 times at most),
// whatever X-Should-Retry says, and after an error inside the stream whose code is one of those
// or whose type says "server_error" or "unavailable" (opencode's reading, docs/CLIENTS.md). The
// relay's safe default must leave it at one request.
async function plainClient(baseUrl, model) {
  const once = async () => {
    const res = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'acme-agent/1.0', authorization: 'Bearer switchyard' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'say hi' }] }),
      signal: AbortSignal.timeout(60000),
    });
    const text = await res.text();
    if (res.status !== 200)
      return { code: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0), text };
    const event = text.split('\n').find((l) => l.startsWith('data: {"error"'));
    if (!event)
      return { ok: true, text };
    const error = JSON.parse(event.slice(6)).error;
    return { code: /server_error|unavailable/.test(String(error.type)) ? 500 : Number(error.code), text };
  };
  for (let attempt = 1; ; ++attempt) {
    const r = await once();
    if (r.ok)
      return { gaveUp: false, detail: `answered: ${r.text.slice(-300)}` };
    if (!(r.code === 429 || r.code >= 500) || attempt > 3)
      return { gaveUp: true, detail: `gave up at ${r.code} after ${attempt} attempt(s): ${r.text.slice(-300)}` };
    await new Promise((resolve) => setTimeout(resolve, Math.min(r.retryAfter, 1) * 1000 + 100));
  }
}

// Each runs one client against baseUrl until it gives up; `gaveUp` says it did so by itself.
// What Claude Code showed its user: the "result" of `claude -p --output-format json`.
function claudeResult(run) {
  try {
    return String(JSON.parse(run.stdout).result ?? '');
  } catch {
    return '';
  }
}

async function runClaudeExported(t, baseUrl, model, bin) {
  const home = scratchHome(t);
  await installClaudeSettings(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)]);
  const run = await runClaude(t, home, baseEnv(home), { timeoutMs: 60000, bin });
  return { gaveUp: !run.timedOut && run.code !== 0, shown: claudeResult(run), detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)}` };
}

async function runClaudeEnv(t, baseUrl, model, bin) {
  const home = scratchHome(t);
  const run = await runClaude(t, home, { ...claudeEnv(home, baseUrl, model), CLAUDE_CODE_MAX_RETRIES: '3' }, { timeoutMs: 60000, bin });
  return { gaveUp: !run.timedOut && run.code !== 0, shown: claudeResult(run), detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)}` };
}

export const CLIENTS = {
  plain: (t, baseUrl, model) => plainClient(baseUrl, model),
  async openai(t, baseUrl, model) {
    const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'switchyard', timeout: 30000 });
    const error = await client.chat.completions
      .create({ model, stream: true, messages: [{ role: 'user', content: 'say hi' }] })
      .then(async (stream) => { for await (const _ of stream); }, (e) => e)
      .catch((e) => e);
    return { gaveUp: error instanceof OpenAI.APIError, detail: String(error) };
  },
  async anthropic(t, baseUrl, model) {
    const client = new Anthropic({ baseURL: baseUrl, apiKey: 'switchyard', timeout: 30000 });
    const error = await client.messages
      .create({ model, max_tokens: 4096, stream: true, messages: [{ role: 'user', content: 'say hi' }] })
      .then(async (stream) => { for await (const _ of stream); }, (e) => e)
      .catch((e) => e);
    return { gaveUp: error instanceof Anthropic.APIError, detail: String(error) };
  },
  async 'claude-code'(t, baseUrl, model) { return runClaudeExported(t, baseUrl, model, 'claude'); },
  // Every model variable in the environment, CLAUDE_CODE_MAX_RETRIES=3, and no
  // CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK: what a user who copied only the model variables has.
  async 'claude-code-env'(t, baseUrl, model) { return runClaudeEnv(t, baseUrl, model, 'claude'); },
  // The newest Claude Code (package.json's claude-code-newest), the same two ways.
  async 'claude-code-newest'(t, baseUrl, model) { return runClaudeExported(t, baseUrl, model, 'claude-newest'); },
  async 'claude-code-newest-env'(t, baseUrl, model) { return runClaudeEnv(t, baseUrl, model, 'claude-newest'); },
  async opencode(t, baseUrl, model) {
    const home = scratchHome(t);
    const configFile = await installOpencodeConfig(t, home, ['--base-url', baseUrl, '--list', listFile(t, model)]);
    // opencode takes 50 s to give up on a busy 2-core machine.
    const run = await runOpencode(t, home, configFile, { timeoutMs: 150000 });
    return { gaveUp: !run.timedOut, detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}` };
  },
  async pi(t, baseUrl, model) {
    const home = scratchHome(t);
    const agentDir = await installPiModels(t, home, ['--base-url', baseUrl, '--list', listFile(t, model)]);
    const run = await runPi(t, home, agentDir, model);
    const message = piLastAssistant(run);
    return { gaveUp: !run.timedOut && message?.stopReason === 'error', detail: `${run.ms} ms: ${JSON.stringify(message)?.slice(0, 500)}` };
  },
  async codex(t, baseUrl, model) {
    const home = scratchHome(t);
    await installCodexConfig(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)]);
    const run = await runCodex(t, home, { timeoutMs: 90000 });
    return { gaveUp: !run.timedOut && run.code !== 0, detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}` };
  },
  // With the exported model catalog (`--catalog`): Codex knows the model, and still gives up at once.
  async 'codex-catalog'(t, baseUrl, model) {
    const home = scratchHome(t);
    await installCodexConfig(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)], { catalog: true });
    const run = await runCodex(t, home, { timeoutMs: 90000 });
    return { gaveUp: !run.timedOut && run.code !== 0, detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}` };
  },
  // Codex's own retry settings (the export's two lines taken out): what a user who wrote the
  // provider table by hand has. The relay alone must keep this to one request per refusal.
  async 'codex-own-retries'(t, baseUrl, model) {
    const home = scratchHome(t);
    const dir = await installCodexConfig(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)]);
    const file = path.join(dir, 'config.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^(request|stream)_max_retries = .*\n/gm, ''));
    const run = await runCodex(t, home, { timeoutMs: 90000 });
    return { gaveUp: !run.timedOut && run.code !== 0, detail: `exit ${run.code} after ${run.ms} ms: ${run.stdout.slice(-500)} ${run.stderr.slice(-500)}` };
  },
  async cline(t, baseUrl, model) {
    const home = scratchHome(t);
    await installClineConfig(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)]);
    const run = await runCline(t, home, { timeoutMs: 120000 });
    const result = clineResult(run);
    return { gaveUp: !run.timedOut && result?.finishReason === 'error', detail: `exit ${run.code} after ${run.ms} ms: ${JSON.stringify(result)?.slice(0, 500)}` };
  },
  async qwen(t, baseUrl, model) {
    const home = scratchHome(t);
    await installQwenSettings(t, home, ['--base-url', baseUrl, '--model', model, '--list', listFile(t, model)]);
    const run = await runQwen(t, home, { timeoutMs: 120000 });
    const result = qwenResult(run);
    return { gaveUp: !run.timedOut && result?.is_error === true, detail: `exit ${run.code} after ${run.ms} ms: ${JSON.stringify(result)?.slice(0, 500)} ${run.stderr.slice(-300)}` };
  },
};

// The clients of Anthropic's /v1/messages: they get the engine's error event as the engine sent it.
const MESSAGES_CLIENTS = ['anthropic', 'claude-code', 'claude-code-env', 'claude-code-newest', 'claude-code-newest-env'];

// The clients refusals.test.mjs runs; codex, cline and qwen have a file each.
export const FIRST_CLIENTS = ['openai', 'anthropic', 'claude-code', 'claude-code-env', 'claude-code-newest',
  'claude-code-newest-env', 'opencode', 'pi'];

// The status a client sees for a refusal that comes before any answer: Codex sends a request
// again after anything but a 400, so the relay tells it a 404, 423 or 424 as a 400 (the body
// names the real one; docs/CLIENTS.md).
// Claude Code sends a streaming request that met a 404 once more without streaming, in 2.1.197
// and in 2.1.332 alike, whatever its settings say (the check is on the status alone, before any
// setting is read); a 410, 421 or 424 it takes as final (measured: one request in both
// versions; 400 and 422: six in 2.1.332 and 2.1.337). So the relay tells it an unknown model as
// a 410 and an engine's own 400 as a 424 (the body keeps the error's type and words).
export function sentStatus(client, kase) {
  if (client.startsWith('codex') && !kase.late)
    return 400;
  if (client.startsWith('claude-code') && !kase.late && kase.status === 404)
    return 410;
  // The newest sends a 400 or 422 it has no handler for five more times, a 424 once.
  if (client.startsWith('claude-code') && !kase.late && kase.status === 400)
    return 424;
  return kase.status;
}

// How many attempts each client makes, as [streaming, not streaming] per case; opencode's are
// counted apart (its session title call and its turn).
function expectAttempts(client, kase, attempts) {
  const list = attempts.map((r) => `${r.path} stream=${r.json.stream} tools=${(r.json.tools ?? []).length} -> ${r.answer?.status}`).join(', ');
  const streaming = attempts.filter((r) => r.json.stream === true).length;
  const plain = attempts.length - streaming;
  if (client === 'opencode' && kase.relayGone) {
    // Its first call (the session title, or the turn) meets the refusal; what comes after it
    // finds the port closed. Each call reached the relay at most once.
    const turns = attempts.filter((r) => (r.json.tools ?? []).length > 0);
    assert.ok(attempts.length >= 1 && turns.length <= 1 && attempts.length - turns.length <= 1, list);
  } else if (client === 'opencode') {
    // Two calls of its own: the session title (no tools) and the turn (tools), one attempt each,
    // also when the turn is the one that meets the error event after the early 200 (opencode
    // sent the turn again while the event's type said "unavailable_error"; docs/CLIENTS.md).
    const turns = attempts.filter((r) => (r.json.tools ?? []).length > 0);
    assert.equal(turns.length, 1, list);
    assert.ok(attempts.filter((r) => (r.json.tools ?? []).length === 0).length <= 1, list);
  } else {
    // Claude Code without the exported settings too: an error in its stream follows a completed
    // block (api/messagesstreamclose.h), so it does not send the turn again without streaming.
    assert.deepEqual([streaming, plain], [1, 0], list);
  }
}

// One cell of the client × cause table (tools/refusal-table.mjs), for a case that passed.
function recordCell(client, kase, attempts, toClosedPort = 0) {
  const dir = process.env.SWITCHYARD_E2E_TABLE_DIR;
  if (!dir)
    return;
  const streaming = attempts.filter((r) => r.json.stream === true).length;
  const plain = attempts.length - streaming;
  const turns = attempts.filter((r) => (r.json.tools ?? []).length > 0).length;
  let requests = String(attempts.length);
  if (client === 'opencode' && kase.relayGone)
    requests = '1 per call that reached it';   // its title call, its turn, or both: as timing has it
  else if (client === 'opencode')
    requests = String(turns);   // its title call, at most one, is asserted apart
  else if (plain > 0)
    requests = `**${attempts.length}**: streaming, then without`;
  const sent = sentStatus(client, kase);
  if (sent !== kase.status)
    requests += ` (a \`${sent}\`)`;
  if (toClosedPort > 0 && client !== 'opencode')
    requests += ', then it tries the closed port';   // how often is the client's retry policy
  const answer = kase.late ? `\`200\`, then an error event (\`${kase.status}\`)` : `\`${kase.status}\``;
  mkdirSync(dir, { recursive: true });
  writeFileSync(cellFile(dir, client, kase.what), JSON.stringify({ client, cause: kase.what, answer, requests }));
}

// Runs every client against every case: `kase.model(client)` names the model; `kase.trigger(st,
// client, model, recorder)`, if given, runs alongside the client (it makes the late refusal
// happen).
export function runCases(t, relay, kases, clients = FIRST_CLIENTS) {
  const runs = [];
  for (const client of clients) {
    const run = CLIENTS[client];
    for (const kase of kases) {
      const model = kase.model(client);
      runs.push(t.test(`${client}: ${kase.status} (${kase.what})`, async (st) => {
        const recorder = await startRecorder(st, relay.url);
        const [outcome] = await Promise.all([run(st, recorder.url, model), kase.trigger?.(st, client, model, recorder)]);
        assert.ok(outcome.gaveUp, `${client} gave up by itself: ${outcome.detail}`);

        const sent = recorder.seen.filter((r) => isInference(r) && r.json?.model === model);
        // Once the relay is gone (kase.relayGone), what a client sends after it reaches nothing:
        // the journal counts what reached the relay.
        const attempts = kase.relayGone ? sent.filter((r) => r.answer) : sent;
        // The journal writes its lines within 10 ms of the answer: wait for as many as were sent.
        const logged = await relay.waitForPosts(Math.max(1, attempts.length), (e) => e.model === model);
        const lines = logged.map((e) => e.line).join('\n');
        assert.equal(logged.length, attempts.length, `the journal counts what the client sent:\n${lines}`);
        // After the early 200 the refusal is an event in the stream (the journal says why); a
        // request without streaming waits for its status, and so does one that comes after
        // the refusal (opencode's second call).
        const status = sentStatus(client, kase);
        for (const r of attempts)
          assert.ok([status, kase.late && r.json.stream === true ? 200 : status].includes(r.answer?.status), lines);
        if (kase.late)
          assert.ok(attempts.some((r) => r.answer.status === 200), `the refusal came after the early 200:\n${lines}`);
        for (const e of logged) {
          assert.ok(e.status === status || (kase.late && e.status === 200), lines);
          if (e.status === 200)
            assert.match(e.line, typeof kase.reason === 'function' ? kase.reason(client) : kase.reason);
        }
        // Claude Code shows the relay's own words for a refusal (the journal's err="...", its
        // first 40 characters), whatever status or event carried them.
        if (outcome.shown !== undefined && !kase.relayGone) {
          let compared = 0;
          for (const e of logged) {
            // An engine's error the relay passed on: the engine's words after "rewrote upstream 500: ".
            const said = /err="((?:[^"\\]|\\.)*)"/.exec(e.line)?.[1]?.replace(/^rewrote upstream \d+: /, '');
            if (!said || said.startsWith('the engine\'s error event went out'))
              continue;
            assert.ok(outcome.shown.includes(said.slice(0, 40)), `${client} showed "${outcome.shown}", the relay said "${said}"`);
            ++compared;
          }
          if ([404, 423, 424].includes(kase.status) && !kase.late)   // the relay's own refusals
            assert.ok(compared > 0, `no relay words to compare for ${client}:\n${lines}`);
        }
        st.diagnostic(`attempts: ${attempts.map((r) => `stream=${r.json.stream === true} tools=${(r.json.tools ?? []).length} -> ${r.answer?.status}`).join(', ')}`);
        expectAttempts(client, kase, attempts);
        recordCell(client, kase, attempts, sent.length - attempts.length);
        // The client never came back for more after giving up.
        assert.equal(recorder.seen.filter((r) => isInference(r)).length, sent.length);
      }));
    }
  }
  return Promise.all(runs);
}

// The relay's refusals before it answers (404, 424, 423), each client run against each.
export async function refuseBeforeAnswering(t, clients = FIRST_CLIENTS) {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'] });
  // The relay names the host's address in its 424; a port such as 45029 would by itself make
  // opencode and pi retry (refusal-words.test.mjs), so this one has no such digits.
  const closedPort = await freePortWhere((port) => !RETRY_DIGITS.test(String(port)));
  // A second box whose GPU a lease owns; one model per client so each run is counted apart.
  const busy = await startFake(t, { models: clients, loaded: [] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url, down: `http://127.0.0.1:${closedPort}`, busy: busy.url } });
  await relay.waitForModels(['h1-flint-40b', ...clients.map((c) => `busy-${c}`)]);
  const lease = await fetch(`${relay.url}/admin/hosts/busy/lease`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner: 'e2e bench queue', ttl_s: 600 }),
    signal: AbortSignal.timeout(5000),
  });
  assert.equal(lease.status, 200, await lease.text());

  await runCases(t, relay, [
    { status: 404, what: 'unknown model', model: (client) => `h1-nope-${client}` },
    { status: 424, what: 'host down', model: (client) => `down-m-${client}` },
    { status: 423, what: 'host leased', model: (client) => `busy-${client}` },
  ], clients);
  assert.ok(fake.child.lines.length >= 1);
  assert.equal((await fake.inferenceRequests()).length, 0, 'no refused request reached the box');
  assert.equal((await busy.inferenceRequests()).length, 0, 'no request reached the leased box');
}

// Waits (bounded) for a file the engine writes when it starts.
async function readWhenThere(file, ms) {
  const deadline = Date.now() + ms;
  while (!existsSync(file) || readFileSync(file, 'utf8').trim() === '') {
    if (Date.now() > deadline)
      throw new Error(`${file} was not written within ${ms} ms: the engine did not start`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return readFileSync(file, 'utf8').trim();
}

// An engine that fails to start before the relay's early 200 (issue 32): one `local` host per
// client whose engine exits 1 at once, and an early 200 that would come only after 20 s, so the
// failed switch is a plain 424 (Codex: its 400) with the engine's exit in the relay's words.
export async function engineFailsToStart(t, clients = FIRST_CLIENTS) {
  const dir = scratchDir(t, 'switchyard-e2e-nostart-');
  const host = (client) => `broken_${client.replaceAll('-', '_')}`;
  const hosts = {};
  for (const client of clients) {
    const port = await freePortWhere((p) => !RETRY_DIGITS.test(String(p)));
    hosts[host(client)] = { driver: 'local', engines: { main: {
      url: `http://127.0.0.1:${port}`, models: ['m'], start_timeout_s: 60, argv: ['/bin/sh', '-c', 'exit 1'],
    } } };
  }
  const relay = await startRelay(t, { config: {
    state_dir: path.join(dir, 'state'), hosts, waiting: { early_200_after_s: 20, comment_every_s: 5 },
  } });
  await relay.waitForModels(Object.keys(hosts).map((h) => `${h}-m`));
  await runCases(t, relay, [
    { status: 424, what: 'the engine fails to start', model: (client) => `${host(client)}-m` },
  ], clients);
}

// The relay shuts down (SIGTERM) while a request waits for its host, after the early 200: the
// request gets the relay's refusal as an error event at once, not a cut when the grace period
// ends. One relay per client, each with a `local` host whose engine never answers /health.
export async function relayShutsDown(t, clients = FIRST_CLIENTS) {
  await Promise.all(clients.map(async (client) => {
    const dir = scratchDir(t, 'switchyard-e2e-stopping-');
    const port = await freePortWhere((p) => !RETRY_DIGITS.test(String(p)));
    const relay = await startRelay(t, { config: {
      state_dir: path.join(dir, 'state'),
      hosts: { stopping: { driver: 'local', engines: { main: {
        url: `http://127.0.0.1:${port}`, models: ['m'], start_timeout_s: 120, argv: ['/bin/sh', '-c', 'exec sleep 300'],
      } } } },
      waiting: { early_200_after_s: 0.3, comment_every_s: 0.3 },
    } });
    await relay.waitForModels(['stopping-m']);
    await runCases(t, relay, [{
      status: 424, late: true, relayGone: true, what: 'the relay shuts down while it waits',
      reason: /err="the relay is shutting down/, model: () => 'stopping-m',
      trigger: async (st, c, model, recorder) => {
        await recorder.waitFor((r) => isInference(r) && r.json?.model === model && r.answer?.status === 200, 45000,
                               `the early 200 for ${model}`);
        relay.child.proc.kill('SIGTERM');
        const { code } = await relay.child.exited;
        assert.equal(code, 0, 'the relay stopped cleanly');
      },
    }], [client]);
  }));
}

// The relay's refusals after its early 200, as an SSE error event: the engine dies while it
// starts (424), a lease is taken while the request waits (423).
export async function refuseAfterEarly200(t, clients = FIRST_CLIENTS) {
  // One `local` host per client and case, whose engine never answers /health: every request
  // waits for the switch, and gets the relay's 200 and SSE comments after 0.3 s.
  //   gone_*: the test kills the engine once the early 200 is out, so the switch fails (424). The
  //           engine's second start fails at once: a repeat gets its 424 without waiting.
  //   held_*: the test asks for the host's lease once the early 200 is out (423).
  const dir = scratchDir(t, 'switchyard-e2e-late-');
  const hosts = {};
  // Host names take no '-' (an alias is `<host>-<key>`).
  const host = (kind, client) => `${kind}_${client.replaceAll('-', '_')}`;
  const engineUrl = async () => `http://127.0.0.1:${await freePortWhere((port) => !RETRY_DIGITS.test(String(port)))}`;
  for (const client of clients) {
    const pidFile = path.join(dir, `${host('gone', client)}.pid`);
    hosts[host('gone', client)] = { driver: 'local', engines: { main: {
      url: await engineUrl(), models: ['m'], start_timeout_s: 120,
      argv: ['/bin/sh', '-c', `if [ -e '${pidFile}' ]; then exit 3; fi; echo $$ > '${pidFile}'; exec sleep 300`],
    } } };
    hosts[host('held', client)] = { driver: 'local', engines: { main: {
      url: await engineUrl(), models: ['m'], start_timeout_s: 120, argv: ['/bin/sh', '-c', 'exec sleep 300'],
    } } };
  }
  const relay = await startRelay(t, { config: {
    state_dir: path.join(dir, 'state'), hosts, waiting: { early_200_after_s: 0.3, comment_every_s: 0.3 },
  } });
  await relay.waitForModels(Object.keys(hosts).map((h) => `${h}-m`));

  // When it does not come, the error says what the recorder and the relay saw instead.
  const earlyAnswer = (recorder, model) =>
    recorder.waitFor((r) => isInference(r) && r.json?.model === model && r.answer?.status === 200, 45000, `the early 200 for ${model}`)
      .catch((e) => {
        const host = model.slice(0, model.lastIndexOf('-'));
        const seen = recorder.seen.map((r) => `${r.method} ${r.path} model=${r.json?.model} -> ${r.answer?.status ?? 'no answer yet'}`);
        const said = relay.child.lines.filter((l) => l.includes(host));
        throw new Error(`${e.message}\nthe recorder saw:\n${seen.join('\n')}\nthe relay said about ${host}:\n${said.join('\n')}`);
      });
  await runCases(t, relay, [
    {
      status: 424, late: true, what: 'the engine dies while it starts', reason: /err="switching host gone_\S+ to engine main failed/,
      model: (client) => `${host('gone', client)}-m`,
      trigger: async (st, client, model, recorder) => {
        await earlyAnswer(recorder, model);
        process.kill(Number(await readWhenThere(path.join(dir, `${host('gone', client)}.pid`), 10000)), 'SIGKILL');
      },
    },
    {
      status: 423, late: true, what: 'a lease is taken while it waits', reason: /err="host held_\S+ is leased by/,
      model: (client) => `${host('held', client)}-m`,
      trigger: async (st, client, model, recorder) => {
        await earlyAnswer(recorder, model);
        // The relay refuses the waiting requests as soon as the lease is asked for, and logs
        // it; the lease's own answer waits until the GPU is free, which the engine that never
        // comes up does not make it (it would answer 409 when the lease's time is up).
        const leaseTaken = relay.child.waitForLine(new RegExp(`host ${host('held', client)}: GPU lease taken by`), 10000);
        const asking = new AbortController();
        st.after(() => asking.abort());
        fetch(`${relay.url}/admin/hosts/${host('held', client)}/lease`, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ owner: 'e2e bench queue', ttl_s: 600 }),
          signal: asking.signal,
        }).catch(() => { /* aborted at the end */ });
        await leaseTaken;
      },
    },
  ], clients);
}

// The engine's own errors, each from a box of its own that fails every request it gets: a 500
// before it answers (the relay's 424), a 400 (passed on), and an error event inside its stream
// after two tokens (passed on as a 424 in the stream, the 200 already out).
export async function engineErrors(t, clients) {
  const failing = async (failure) => {
    // A window as big as the clients' prompts (Qwen Code's is over the fake's default).
    const fake = await startFake(t, { models: clients, loaded: clients,
                                      extraArgs: clients.flatMap((c) => ['--model-ctx', `${c}=65536`]) });
    const res = await fetch(`${fake.url}/__fake/config`, {
      method: 'POST', body: JSON.stringify({ fail_next: { count: 1000, ...failure } }), signal: AbortSignal.timeout(5000),
    });
    assert.equal(res.status, 200, await res.text());
    return fake;
  };
  const boxes = {
    e500: await failing({ mode: 'status', status: 500, body: { error: { code: 500, message: 'Jinja Exception: bad template', type: 'server_error' } } }),
    e400: await failing({ mode: 'status', status: 400, body: { error: { code: 400, message: 'bad grammar', type: 'invalid_request_error' } } }),
    emid: await failing({ mode: 'error', after_events: 2 }),
  };
  const relay = await startRelay(t, { upstreams: Object.fromEntries(Object.entries(boxes).map(([h, f]) => [h, f.url])) });
  await relay.waitForModels(Object.keys(boxes).flatMap((h) => clients.map((c) => `${h}-${c}`)));
  await runCases(t, relay, [
    { status: 424, what: 'the engine answers 500', model: (client) => `e500-${client}` },
    { status: 400, what: 'the engine answers 400', model: (client) => `e400-${client}` },
    // On chat completions the event is told as a 424 without retry words, on /v1/responses as a
    // response.failed Codex does not retry; on /v1/messages it goes out as the engine sent it
    // (no client of that API retries on its words).
    { status: 424, late: true, what: 'an error event inside the engine\'s stream',
      reason: (client) => (MESSAGES_CLIENTS.includes(client) ? /status=200/ : /err="the engine's error event went out as a 424"/),
      model: (client) => `emid-${client}` },
  ], clients);
}

// The real llama-server killed while it streams a client's answer (issue 32 item 2): one box per
// client, each a llama-server that generates until its window is full (`--ignore-eos`), killed
// once the client has the stream's first event. The relay ends the stream with its error event
// (a 424: "upstream stream broke off"), and no client sends the turn again.
export async function killedMidStream(t, clients) {
  const boxes = {};
  await Promise.all(clients.map(async (client) => {
    const port = await freePortWhere((p) => !RETRY_DIGITS.test(String(p)));
    // A window for the longest prompt (Claude Code's, some 20,000 tokens) and an answer after it.
    boxes[client] = await startLlamaServer(t, { port, ctx: 40960, extraArgs: ['--ignore-eos'],
                                                 models: { [client]: 'tiny-llama-a' } });
  }));
  const host = (client) => `mid${clients.indexOf(client)}`;
  const relay = await startRelay(t, { upstreams: Object.fromEntries(clients.map((c) => [host(c), boxes[c].url])) });
  await relay.waitForModels(clients.map((c) => `${host(c)}-${c}`));
  await runCases(t, relay, [{
    status: 424, late: true, what: 'its llama-server is killed while it streams',
    reason: /err="connection closed in the middle of the body"/,
    model: (client) => `${host(client)}-${client}`,
    async trigger(st, client, model, recorder) {
      // Prefilling a coding agent's prompt takes a while on one thread of a shared CPU.
      await recorder.waitFor((r) => r.json?.model === model && r.answer?.status === 200 && r.answer.start.includes('data:'),
                             240000, `${client}'s stream to begin`);
      await boxes[client].kill();
    },
  }], clients);
}
