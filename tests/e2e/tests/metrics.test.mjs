// GET /metrics as the tools people run read it: Debian's promtool finds nothing wrong with the
// relay's text, and a real Prometheus server started here on loopback scrapes the relay and
// answers a PromQL query for a counter this test's traffic moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_DIR, freePort, scratchDir, startChild, startFake, startRelay } from '../lib/harness.mjs';

const chat = (relay, model, stream) => fetch(`${relay.url}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(15000),
  body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
}).then(async (r) => { await r.text(); return r.status; });

async function until(what, ms, probe) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    last = await probe().catch((e) => `error: ${e.message}`);
    if (last === true)
      return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}; last saw: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('promtool accepts /metrics and a real Prometheus scrapes it', async (t) => {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  assert.equal(await chat(relay, 'h1-flint-40b', false), 200);
  assert.equal(await chat(relay, 'h1-flint-40b', true), 200);
  assert.equal(await chat(relay, 'h1-nope', false), 404);
  // The journal line comes with the answer's end; the counters with it.
  await relay.waitForPosts(3);

  const res = await fetch(`${relay.url}/metrics`, { signal: AbortSignal.timeout(5000) });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  assert.match(text, /^switchyard_requests_total\{host="h1",engine="[^"]*",alias="h1-flint-40b",kind="chat",status_class="2xx",client_app="other",key=""\} 2$/m);
  assert.match(text, /^switchyard_requests_total\{host="h1",engine="",alias="other",kind="chat",status_class="4xx",client_app="other",key=""\} 1$/m);
  assert.match(text, /^process_start_time_seconds \d+(\.\d+)?$/m);

  // The Grafana dashboard in resources/ asks only for what the relay exports (every family is
  // announced by its TYPE line even before it has a series; a histogram's series end in
  // _bucket, _sum or _count).
  const dashboard = JSON.parse(readFileSync(path.join(E2E_DIR, '..', '..', 'resources', 'grafana', 'switchyard-dashboard.json'), 'utf8'));
  const families = new Set([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
    type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name]));
  const asked = JSON.stringify(dashboard).match(/\b(switchyard|process)_[a-z_]+/g);
  assert.ok(asked.length >= 10, 'the dashboard has queries');
  for (const name of new Set(asked))
    assert.ok(families.has(name), `the dashboard asks for ${name}, which /metrics does not export`);

  const dir = scratchDir(t, 'switchyard-e2e-metrics-');
  const file = path.join(dir, 'metrics.txt');
  writeFileSync(file, text);
  // promtool exits 1 and names the metric when the text breaks the format or the naming rules.
  execFileSync('/bin/sh', ['-c', `promtool check metrics < '${file}'`], { stdio: 'pipe' });

  const promPort = await freePort();
  const relayAddress = new URL(relay.url).host;
  writeFileSync(path.join(dir, 'prometheus.yml'), [
    'global: { scrape_interval: 1s, scrape_timeout: 1s }',
    'scrape_configs:',
    `  - job_name: switchyard`,
    `    static_configs: [{ targets: ['${relayAddress}'] }]`,
    '',
  ].join('\n'));
  const prom = startChild(t, 'prometheus', [
    `--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn',
  ]);
  const query = async (q) => {
    const r = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(q)}`, { signal: AbortSignal.timeout(3000) });
    const body = await r.json();
    return body.data?.result?.[0]?.value?.[1];
  };
  const served = 'sum(switchyard_requests_total{alias="h1-flint-40b",status_class="2xx"})';
  await until('Prometheus to have scraped 2 served requests', 30000, async () => (await query(served)) === '2' || `${await query(served)} (${prom.stderr.slice(-300)})`);
  assert.equal(await chat(relay, 'h1-flint-40b', true), 200);
  await until('the next scrape to count the third', 30000, async () => (await query(served)) === '3' || await query(served));
  // A static host (no controller) reads serving while it answers, down when it does not.
  assert.equal(await query('switchyard_host_state{host="h1",state="serving"}'), '1');
  assert.equal(await query('switchyard_host_state{host="h1",state="down"}'), '0');
});
