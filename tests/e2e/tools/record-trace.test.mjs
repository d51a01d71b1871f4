// Records a trace through the relay from the real clients (issue 31 item 1): one box, a `local`
// host with two fake engines; opencode takes turns on one engine (its session continued, its
// title call beside the first turn) while Claude Code takes turns on the other, both at once.
// The host runs in arrival order, so the trace holds the clients' own pace. The relay's
// /admin/requests is written to SWITCHYARD_TRACE_OUT (default trace.json here), the export
// `switchyard-switchsim --export FILE --host box` replays under arrival order and the defaults.
//   SWITCHYARD_BIN_DIR=build/bin node --test tools/record-trace.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { baseEnv, binDir, clientBin, freePort, runClient, scratchDir, scratchHome, startRelay } from '../lib/harness.mjs';
import { installClaudeSettings, installOpencodeConfig, runOpencode } from '../lib/clients.mjs';

const TURNS = Number(process.env.SWITCHYARD_TRACE_TURNS ?? 4);

test('record a trace of opencode and Claude Code on two engines of one box', { timeout: 900000 }, async (t) => {
  const dir = scratchDir(t, 'switchyard-trace-');
  const engine = async (model) => {
    const port = await freePort();
    return { url: `http://127.0.0.1:${port}`, models: [model], start_timeout_s: 20,
             argv: [path.join(binDir(), 'switchyard-fakellama'), '--port', String(port), '--models', model,
                    '--loaded', model, '--max-reply-tokens', '40', '--tokens-per-s', '40',
                    '--model-ctx', `${model}=65536`] };
  };
  const relay = await startRelay(t, { config: {
    state_dir: path.join(dir, 'state'),
    hosts: { box: { driver: 'local', prompt_cache: false, scheduling: { policy: 'arrival' },
                    engines: { ea: await engine('coder-a'), eb: await engine('coder-b') } } },
  } });
  await relay.waitForModels(['box-coder-a', 'box-coder-b']);

  const opencode = async () => {
    const home = scratchHome(t);
    const config = await installOpencodeConfig(t, home, ['--base-url', relay.url, '--model', 'box-coder-a']);
    for (let i = 0; i < TURNS; ++i) {
      const run = await runOpencode(t, home, config, { args: i ? ['--continue'] : [], timeoutMs: 180000 });
      assert.equal(run.code, 0, run.stderr.slice(-1000));
    }
  };
  const claude = async () => {
    const home = scratchHome(t);
    await installClaudeSettings(t, home, ['--base-url', relay.url, '--model', 'box-coder-b']);
    for (let i = 0; i < TURNS; ++i) {
      const run = await runClient(t, clientBin('claude'),
                                  ['-p', '--output-format', 'json', ...(i ? ['--continue'] : []), `step ${i}: say hi`],
                                  { env: baseEnv(home), cwd: path.join(home, 'project'), timeoutMs: 180000 });
      assert.equal(run.code, 0, run.stdout.slice(-1000));
    }
  };
  await Promise.all([opencode(), claude()]);
  const res = await fetch(`${relay.url}/admin/requests?limit=10000`, { signal: AbortSignal.timeout(10000) });
  assert.equal(res.status, 200);
  const out = process.env.SWITCHYARD_TRACE_OUT ?? 'trace.json';
  writeFileSync(out, await res.text());
  t.diagnostic(`written: ${out}`);
});
