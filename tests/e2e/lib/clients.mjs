// How each real client is run headless and offline (see docs/CLIENTS.md), and how its outcome
// is read.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
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

export function runClaude(t, home, env, { prompt = 'say hi', timeoutMs = 90000 } = {}) {
  return runClient(t, clientBin('claude'), ['-p', '--output-format', 'json', prompt], {
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
