// Case 5: the relay's refusals carry X-Should-Retry: false in a status no client retries by
// itself, so each client makes exactly one attempt and gives up at once:
//   404  unknown model
//   424  its host is down (an --upstream on a closed port)
//   423  a lease owns the host's GPU (taken through the relay's admin API, as `switchyard lease` does)
// and the same when the refusal comes after the relay's early 200, as an SSE error event in the
// request's shape (a request that waits for an engine switch):
//   424  the engine dies while it starts
//   423  a lease is taken while the request waits
//
// Attempts are counted at a recording layer between each client and the relay, and checked
// against the relay's own journal lines. Every client run gets its own model name (and for the
// late refusals its own host), so the runs share one relay and go in parallel.
//
// Claude Code is run twice: with the exported settings (`switchyard export claude-code`, which
// sets CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK=1), and with the environment of
// ../../../docs/CLIENTS.md without that variable ("claude-code-env"), whose extra requests are
// measured here too so that the table in CLIENTS.md stays true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePortWhere, scratchDir, startFake, startRelay } from '../lib/harness.mjs';
import { CLIENTS, RETRY_DIGITS, isInference, runCases } from '../lib/refusalcases.mjs';

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
    signal: AbortSignal.timeout(5000),
  });
  assert.equal(lease.status, 200, await lease.text());

  await runCases(t, relay, [
    { status: 404, what: 'unknown model', model: (client) => `h1-nope-${client}` },
    { status: 424, what: 'host down', model: (client) => `down-m-${client}` },
    { status: 423, what: 'host leased', model: (client) => `busy-${client}` },
  ]);
  assert.ok(fake.child.lines.length >= 1);
  assert.equal((await fake.inferenceRequests()).length, 0, 'no refused request reached the box');
  assert.equal((await busy.inferenceRequests()).length, 0, 'no request reached the leased box');
});

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

test('each client makes one attempt on a refusal that comes after the early 200', { concurrency: true }, async (t) => {
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
  for (const client of Object.keys(CLIENTS)) {
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
  ]);
});
