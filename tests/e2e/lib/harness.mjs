// Helpers for the end-to-end tests: start the fake llama.cpp router and the relay as child
// processes on loopback ports, run the real clients with a scratch HOME, read what each side saw.
// Every wait is bounded; every process started here is killed by its PID when the test ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(E2E_DIR, 'node_modules', '.bin');

export function binDir() {
  const dir = process.env.SWITCHYARD_BIN_DIR;
  if (!dir)
    throw new Error('SWITCHYARD_BIN_DIR is not set: point it at the build\'s bin/ (ctest sets it)');
  for (const exe of ['switchyard', 'switchyard-fakellama']) {
    if (!existsSync(path.join(dir, exe)))
      throw new Error(`${path.join(dir, exe)} does not exist: build first`);
  }
  return dir;
}

// Claude Code is installed twice (the pinned version and the newest, under the alias
// claude-code-newest); both ship a `claude` bin, so each is named by its own path.
const CLAUDE_BINS = {
  claude: '@anthropic-ai/claude-code/bin/claude.exe',
  'claude-newest': 'claude-code-newest/bin/claude.exe',
};

export function clientBin(name) {
  const p = CLAUDE_BINS[name] ? path.join(BIN, '..', CLAUDE_BINS[name]) : path.join(BIN, name);
  if (!existsSync(p))
    throw new Error(`${p} does not exist: run scripts/e2e-setup.sh first`);
  return p;
}

// A port for a server that starts later (a relay, an engine). Picked at random from
// 10000-19999: below the kernel's ephemeral range (32768-60999), where every `listen(0)` and
// outgoing connection of the tests running beside this one lands, and apart from the C++
// tests' 20000-31999 (tests/support/laterport.cpp). A port taken from `listen(0)` and closed
// again is handed out again by the kernel within seconds: a fake router in another test took
// one such engine port before its engine started (CI, stop 27). A port is handed out once per
// process, so two engines configured before either starts never share one.
// 10080 is on the Fetch standard's list of bad ports: Node's fetch refuses it ("bad port"),
// which failed e2e_metrics once the relay was given it.
const portsHandedOut = new Set();
const fetchBadPorts = new Set([10080]);
export async function freePort(tries = 200) {
  for (let i = 0; i < tries; ++i) {
    const port = 10000 + Math.floor(Math.random() * 10000);
    if (fetchBadPorts.has(port) || portsHandedOut.has(port) || !(await isFreePort(port)))
      continue;
    portsHandedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port in 10000-19999 after ${tries} tries`);
}

// A free port whose number passes `accept` (tries random ones, then gives up).
export async function freePortWhere(accept, tries = 200) {
  for (let i = 0; i < tries; ++i) {
    const port = await freePort();
    if (accept(port))
      return port;
  }
  throw new Error('no free port passed the filter');
}

// Whether `port` can be bound on 127.0.0.1 now (so nothing listens there).
export function isFreePort(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export function scratchDir(t, prefix = 'switchyard-e2e-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A HOME for a client, with the folders the clients expect, and an empty project folder to run in.
export function scratchHome(t) {
  const home = scratchDir(t, 'switchyard-e2e-home-');
  mkdirSync(path.join(home, 'project'));
  return home;
}

// Only what a client needs from our environment: nothing that could reach the internet or read
// the developer's own config.
export function baseEnv(home, extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    // Anything that tries a package registry fails at once instead of hanging offline.
    npm_config_registry: 'http://127.0.0.1:9/',
    NO_PROXY: '*',
    ...extra,
  };
}

const withTimeout = (promise, ms, what) => {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms); }),
  ]);
};

// A child process whose output is kept in lines; killed (by PID, with its process group) at the
// end of the test.
class Child {
  constructor(t, command, args, options = {}) {
    this.name = path.basename(command);
    this.lines = [];
    this.stderr = '';
    this.waiters = [];
    this.proc = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    let partial = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop();
      for (const line of parts) {
        this.lines.push(line);
        if (process.env.SWITCHYARD_E2E_VERBOSE)
          process.stderr.write(`[${this.name}] ${line}\n`);
        this.waiters = this.waiters.filter((w) => !(w.re.test(line) && (w.resolve(line), true)));
      }
    });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk) => { this.stderr += chunk; });
    t.after(() => this.kill());
  }

  waitForLine(re, ms, what) {
    const found = this.lines.find((l) => re.test(l));
    if (found)
      return Promise.resolve(found);
    const p = new Promise((resolve, reject) => {
      this.waiters.push({ re, resolve });
      this.exited.then(({ code, signal }) =>
        reject(new Error(`${this.name} exited (${code ?? signal}) before "${re}": ${this.stderr.slice(-2000)}`)));
    });
    return withTimeout(p, ms, `${what ?? this.name} to print ${re}`);
  }

  kill() {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null)
      return;
    try { process.kill(-this.proc.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

export async function startFake(t, { models, loaded = [], extraArgs = [] }) {
  const args = ['--port', '0', '--models', models.join(',')];
  for (const m of loaded)
    args.push('--loaded', m);
  args.push(...extraArgs);
  const child = new Child(t, path.join(binDir(), 'switchyard-fakellama'), args);
  const line = await child.waitForLine(/fakellama listening on http:\/\/127\.0\.0\.1:\d+/, 15000, 'fakellama');
  const url = line.match(/(http:\/\/127\.0\.0\.1:\d+)/)[1];
  return {
    url,
    child,
    // What the fake received, with bodies parsed where they are JSON.
    async requests() {
      const res = await fetch(`${url}/__fake/requests`, { signal: AbortSignal.timeout(5000) });
      const list = await res.json();
      return list.map((r) => {
        let json;
        try { json = typeof r.body === 'string' ? JSON.parse(r.body) : r.body; } catch { json = undefined; }
        return { ...r, json };
      });
    },
    async inferenceRequests() {
      return (await this.requests()).filter((r) => r.method === 'POST' && /\/(chat\/completions|messages|responses)$/.test(r.path));
    },
    async reset() {
      await fetch(`${url}/__fake/reset`, { method: 'POST', signal: AbortSignal.timeout(5000) });
    },
  };
}

// The relay, headless, on a port picked here. upstreams: {name: url}; or config: an object
// written to a file (its "listen" is filled in).
export async function startRelay(t, { upstreams, config }) {
  const port = await freePort();
  const dir = scratchDir(t, 'switchyard-e2e-relay-');
  const args = ['--headless', '--listen', `127.0.0.1:${port}`, '--data-dir', path.join(dir, 'data')];
  if (config) {
    const file = path.join(dir, 'switchyard.json');
    writeFileSync(file, JSON.stringify({ ...config, listen: `127.0.0.1:${port}` }, null, 2));
    args.push('--config', file);
  } else {
    for (const [name, url] of Object.entries(upstreams))
      args.push('--upstream', `${name}=${url}`);
  }
  const child = new Child(t, path.join(binDir(), 'switchyard'), args, {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'xdg'), QT_QPA_PLATFORM: 'offscreen' },
  });
  await child.waitForLine(/listening on/, 15000, 'switchyard relay');
  const relay = {
    url: `http://127.0.0.1:${port}`,
    child,
    // The journal's request lines: `DATE TIME METHOD PATH model="M" host=H status=S ...`
    // (`line` is all of it, with `err="..."` where the relay says why it failed).
    journal() {
      return child.lines
        .map((line) => [line, line.match(/^\S+ \S+ ([A-Z]+) (\S+) model="([^"]*)" host=(\S+) status=(\d+)/)])
        .filter(([, m]) => m)
        .map(([line, [, method, target, model, host, status]]) => ({ line, method, target, model, host, status: Number(status) }));
    },
    posts(filter = () => true) {
      return relay.journal().filter((e) => e.method === 'POST' && filter(e));
    },
    async models() {
      const res = await fetch(`${relay.url}/v1/models`, { signal: AbortSignal.timeout(5000) });
      return (await res.json()).data;
    },
    // The catalog fills in from each host's /models a moment after start.
    async waitForModels(aliases, ms = 15000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const ids = (await relay.models()).map((m) => m.id);
        if (aliases.every((a) => ids.includes(a)))
          return ids;
        if (Date.now() > deadline)
          throw new Error(`relay lists ${JSON.stringify(ids)}, not yet ${JSON.stringify(aliases)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    // Waits until the journal has settled on at least n POST lines matching filter.
    async waitForPosts(n, filter = () => true, ms = 10000) {
      const deadline = Date.now() + ms;
      while (relay.posts(filter).length < n && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      return relay.posts(filter);
    },
  };
  return relay;
}

// `switchyard export ...`: its stdout, or a thrown error with its stderr.
export async function exportConfig(t, args) {
  const r = await runClient(t, path.join(binDir(), 'switchyard'), ['export', ...args], {
    env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' }, timeoutMs: 20000,
  });
  if (r.code !== 0)
    throw new Error(`switchyard export ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

// Runs a client to its end (or kills it at timeoutMs). Resolves with its code, output and time.
export function runClient(t, command, args, { env, cwd, timeoutMs = 60000 } = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const kill = () => { try { process.kill(-proc.pid, 'SIGKILL'); } catch { /* gone */ } };
    t.after(kill);
    const timer = setTimeout(() => { timedOut = true; kill(); }, timeoutMs);
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    proc.stdout.on('data', (c) => { stdout += c; });
    proc.stderr.on('data', (c) => { stderr += c; });
    proc.on('error', (e) => { clearTimeout(timer); reject(e); });
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      // The client's own children (language servers, plugin installs) go with it.
      kill();
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

// Reads a stream of JSON lines (opencode --format json, pi --mode json), skipping anything else.
export function jsonLines(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const s = line.trim();
    if (!s.startsWith('{'))
      continue;
    try { out.push(JSON.parse(s)); } catch { /* not JSON */ }
  }
  return out;
}

// A counting layer between a client and the relay: every request is recorded (method, path,
// parsed body, and once its head is back the answer's status and content type) and passed
// through unchanged, the answer streamed back as it comes.
export async function startRecorder(t, target) {
  const seen = [];
  let waiters = [];
  const settle = () => { waiters = waiters.filter((w) => !(seen.some(w.accept) && (w.resolve(seen.find(w.accept)), true))); };
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json;
      try { json = body.length ? JSON.parse(body.toString('utf8')) : undefined; } catch { json = undefined; }
      const entry = { method: req.method, path: req.url.split('?')[0], url: req.url, headers: req.headers, json, at: Date.now() };
      seen.push(entry);
      settle();
      const headers = { ...req.headers, host: upstream.host };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      delete headers.connection;
      if (body.length)
        headers['content-length'] = String(body.length);
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        entry.answer = { status: answer.statusCode, contentType: answer.headers['content-type'] ?? '', at: Date.now(), start: '' };
        settle();
        // The answer's first bytes, for a test that acts once a stream has begun.
        answer.on('data', (chunk) => {
          if (entry.answer.start.length < 4096) {
            entry.answer.start += chunk.toString('utf8');
            settle();
          }
        });
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      });
      // The relay gone (it shut down): the client's connection ends as a closed port would.
      out.on('error', () => req.socket.destroy());
      out.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    // The first request (as recorded above) that passes accept, now or when it comes.
    waitFor(accept, ms, what) {
      const found = seen.find(accept);
      if (found)
        return Promise.resolve(found);
      return withTimeout(new Promise((resolve) => waiters.push({ accept, resolve })), ms, `the recorder to see ${what}`);
    },
  };
}

// The real llama.cpp llama-server that scripts/llama-setup.sh built (ctest's llama_setup fixture
// writes its cache folder into the file SWITCHYARD_LLAMA_DIR_FILE names; SWITCHYARD_LLAMA_DIR
// overrides that), as a router over `models`: {name: one of the cache's tiny models}, each
// linked into a models folder of this test's own under its name. Resolves once it answers
// /health; `kill()` ends it with SIGKILL and resolves when its port refuses.
export async function startLlamaServer(t, { models, port, ctx = 256, extraArgs = [] }) {
  let dir = process.env.SWITCHYARD_LLAMA_DIR;
  if (!dir) {
    const file = process.env.SWITCHYARD_LLAMA_DIR_FILE;
    if (!file || !existsSync(file))
      throw new Error('no llama-server: set SWITCHYARD_LLAMA_DIR, or run the llama_setup test first (ctest does)');
    dir = readFileSync(file, 'utf8').trim();
  }
  const modelsDir = path.join(scratchDir(t, 'switchyard-e2e-llama-'), 'models');
  mkdirSync(modelsDir);
  for (const [name, model] of Object.entries(models))
    symlinkSync(path.join(dir, 'models', `${model}.gguf`), path.join(modelsDir, `${name}.gguf`));
  const child = new Child(t, path.join(dir, 'bin', 'llama-server'), [
    '--host', '127.0.0.1', '--port', String(port), '--threads', '1', '--no-webui',
    '--models-dir', modelsDir, '-c', String(ctx), ...extraArgs,
  ]);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    const status = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, () => 0);
    if (status === 200)
      break;
    if (child.proc.exitCode !== null || Date.now() > deadline)
      throw new Error(`llama-server on ${url} did not become healthy within 30 s: ${child.stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    async kill() {
      child.kill();
      await withTimeout(child.exited, 10000, 'llama-server to exit after SIGKILL');
      const until = Date.now() + 10000;
      while (!(await isFreePort(port))) {
        if (Date.now() > until)
          throw new Error(`port ${port} still taken 10 s after llama-server was killed`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

// Any other program the tests start (a Prometheus server, say): its lines kept, killed with its
// process group at the end of the test.
export function startChild(t, command, args, options = {}) {
  return new Child(t, command, args, options);
}
