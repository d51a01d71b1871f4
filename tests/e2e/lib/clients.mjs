// How each real client is run headless and offline (see docs/CLIENTS.md), and how its outcome
// is read.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { baseEnv, clientBin, exportConfig, jsonLines, runClient } from './harness.mjs';

// ---- Claude Code

// The environment CLIENTS.md gives for Claude Code, every model variable on one alias.
export function claudeEnv(home, baseUrl, model) {
  return baseEnv(home, {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'switchyard',
    ANTHROPIC_MODEL: model,
    ANTHROPIC_DEFAULT_OPUS_MODEL: model,
    ANTHROPIC_DEFAULT_SONNET_MODEL: model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    ANTHROPIC_SMALL_FAST_MODEL: model,
    CLAUDE_CODE_SUBAGENT_MODEL: model,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
  });
}

// Puts `switchyard export claude-code` output, unmodified, in HOME/.claude/settings.json.
export async function installClaudeSettings(t, home, exportArgs) {
  const settings = await exportConfig(t, ['claude-code', ...exportArgs]);
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  writeFileSync(path.join(home, '.claude', 'settings.json'), settings);
}

export function runClaude(t, home, env, { prompt = 'say hi', timeoutMs = 90000, bin = 'claude' } = {}) {
  return runClient(t, clientBin(bin), ['-p', '--output-format', 'json', prompt], {
    env, cwd: path.join(home, 'project'), timeoutMs,
  });
}

// The JSON result `claude -p --output-format json` prints last.
export function claudeResult(run) {
  try {
    return JSON.parse(run.stdout.trim().split('\n').pop());
  } catch {
    return assert.fail(`claude printed no JSON result (exit ${run.code}, ${run.ms} ms): ${run.stdout.slice(-2000)} ${run.stderr.slice(-2000)}`);
  }
}

// ---- opencode

export function opencodeEnv(home, configFile) {
  return baseEnv(home, {
    OPENCODE_CONFIG: configFile,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  });
}

// Writes `switchyard export opencode` output, unmodified, to HOME/opencode.json; returns its path.
export async function installOpencodeConfig(t, home, exportArgs) {
  const file = path.join(home, 'opencode.json');
  writeFileSync(file, await exportConfig(t, ['opencode', ...exportArgs]));
  return file;
}

export function runOpencode(t, home, configFile, { args = [], timeoutMs = 90000 } = {}) {
  return runClient(t, clientBin('opencode'), ['run', '--format', 'json', ...args, 'say hi'], {
    env: opencodeEnv(home, configFile), cwd: path.join(home, 'project'), timeoutMs,
  });
}

export function opencodeText(run) {
  return jsonLines(run.stdout).filter((e) => e.type === 'text').map((e) => e.part?.text ?? '').join('');
}

// ---- pi

// Writes `switchyard export pi` output, unmodified, to HOME/.pi/agent/models.json; returns the folder.
export async function installPiModels(t, home, exportArgs) {
  const dir = path.join(home, '.pi', 'agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'models.json'), await exportConfig(t, ['pi', ...exportArgs]));
  return dir;
}

export function runPi(t, home, agentDir, model, { timeoutMs = 60000 } = {}) {
  return runClient(t, clientBin('pi'), [
    '-p', '--offline', '--no-session', '--mode', 'json', '--provider', 'switchyard', '--model', model, 'say hi',
  ], { env: baseEnv(home, { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' }), cwd: path.join(home, 'project'), timeoutMs });
}

// pi exits 0 even when its call failed: the last assistant message's stopReason says how it went.
export function piLastAssistant(run) {
  const ends = jsonLines(run.stdout).filter((e) => e.type === 'message_end' && e.message?.role === 'assistant');
  return ends.at(-1)?.message;
}

export function piText(message) {
  return (message?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

// ---- Codex

// Writes `switchyard export codex` output, unmodified, to HOME/.codex/config.toml; with
// `catalog`, the export also writes its model catalog to HOME/.codex/switchyard-models.json.
export async function installCodexConfig(t, home, exportArgs, { catalog = false } = {}) {
  const dir = path.join(home, '.codex');
  mkdirSync(dir, { recursive: true });
  const args = catalog ? [...exportArgs, '--catalog', codexCatalogFile(home)] : exportArgs;
  writeFileSync(path.join(dir, 'config.toml'), await exportConfig(t, ['codex', ...args]));
  return dir;
}

export const codexCatalogFile = (home) => path.join(home, '.codex', 'switchyard-models.json');

// `codex exec` runs one turn headless; --disable plugins keeps its plugin sync from calling the
// internet at start. The exported provider sends $SWITCHYARD_API_KEY, which must be set.
export function runCodex(t, home, { prompt = 'say hi', timeoutMs = 90000 } = {}) {
  return runClient(t, clientBin('codex'), ['exec', '--skip-git-repo-check', '--disable', 'plugins', '--json', prompt], {
    env: baseEnv(home, { CODEX_HOME: path.join(home, '.codex'), SWITCHYARD_API_KEY: 'switchyard' }),
    cwd: path.join(home, 'project'), timeoutMs,
  });
}

// The text of Codex's agent messages in `codex exec --json` output.
export function codexText(run) {
  return jsonLines(run.stdout).filter((e) => e.type === 'item.completed' && e.item?.type === 'agent_message')
    .map((e) => e.item.text).join('');
}

// The notices `codex exec --json` prints as error items of a run that goes on (the model metadata
// warning among them).
export function codexNotices(run) {
  return jsonLines(run.stdout).filter((e) => e.type === 'item.completed' && e.item?.type === 'error')
    .map((e) => e.item.message);
}

// The context window Codex used, from its session file (turn_context.model_context_window:
// the configured window less the 5 % Codex keeps free).
export function codexContextWindows(home) {
  const sessions = path.join(home, '.codex', 'sessions');
  const files = existsSync(sessions) ? readdirSync(sessions, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')) : [];
  const windows = [];
  for (const f of files) {
    for (const m of readFileSync(path.join(sessions, String(f)), 'utf8').matchAll(/"model_context_window":(\d+)/g))
      windows.push(Number(m[1]));
  }
  return windows;
}

// ---- Cline

// Writes `switchyard export cline` (providers.json) and `--settings` (global-settings.json),
// unmodified, to HOME/.cline/data/settings.
export async function installClineConfig(t, home, exportArgs) {
  const dir = path.join(home, '.cline', 'data', 'settings');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'providers.json'), await exportConfig(t, ['cline', ...exportArgs]));
  writeFileSync(path.join(dir, 'global-settings.json'), await exportConfig(t, ['cline', '--settings', ...exportArgs]));
  return dir;
}

export function runCline(t, home, { prompt = 'say hi', timeoutMs = 120000 } = {}) {
  return runClient(t, clientBin('cline'), ['--json', prompt], {
    env: baseEnv(home), cwd: path.join(home, 'project'), timeoutMs,
  });
}

// The run_result line `cline --json` prints last: finishReason, text, model.info.contextWindow.
export function clineResult(run) {
  return jsonLines(run.stdout).filter((e) => e.type === 'run_result').at(-1);
}

// ---- Qwen Code

// Writes `switchyard export qwen` output, unmodified, to HOME/.qwen/settings.json.
export async function installQwenSettings(t, home, exportArgs) {
  const dir = path.join(home, '.qwen');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), await exportConfig(t, ['qwen', ...exportArgs]));
  return dir;
}

export function runQwen(t, home, { prompt = 'say hi', timeoutMs = 120000 } = {}) {
  return runClient(t, clientBin('qwen'), ['-p', prompt, '--output-format', 'json'], {
    env: baseEnv(home), cwd: path.join(home, 'project'), timeoutMs,
  });
}

// The "result" entry of `qwen -p --output-format json` (a JSON array of its events).
export function qwenResult(run) {
  try {
    const events = JSON.parse(run.stdout.trim() || '[]');
    return (Array.isArray(events) ? events : [events]).filter((e) => e.type === 'result').at(-1);
  } catch {
    return undefined;
  }
}
