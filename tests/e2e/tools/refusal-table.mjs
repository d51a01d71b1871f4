// The client × cause table of issue 32: how many requests each real client sent for each
// refusal, as the refusal tests recorded them (lib/refusalcases.mjs writes one file per cell
// into SWITCHYARD_E2E_TABLE_DIR). docs/CLIENTS.md carries the table between its markers; this
// checks that it is the one the last run measured, or writes it.
//   node refusal-table.mjs DIR --check docs/CLIENTS.md   fails, with both tables, when they differ
//   node refusal-table.mjs DIR --write docs/CLIENTS.md   puts the measured table there
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Columns: the client runs, in the order users meet them, with the package each one is.
const CLIENTS = [
  ['claude-code', 'Claude Code, exported settings', '@anthropic-ai/claude-code'],
  ['claude-code-env', 'Claude Code, model variables only', '@anthropic-ai/claude-code'],
  ['claude-code-newest', 'Claude Code (newest), exported settings', 'claude-code-newest'],
  ['claude-code-newest-env', 'Claude Code (newest), model variables only', 'claude-code-newest'],
  ['opencode', 'opencode (turns; plus at most one title call)', 'opencode-ai'],
  ['pi', 'pi', '@mariozechner/pi-coding-agent'],
  ['codex', 'Codex, exported config', '@openai/codex'],
  ['codex-own-retries', 'Codex, its own retry settings', '@openai/codex'],
  ['cline', 'Cline', 'cline'],
  ['qwen', 'Qwen Code', '@qwen-code/qwen-code'],
  ['openai', '`openai`', 'openai'],
  ['anthropic', '`@anthropic-ai/sdk`', '@anthropic-ai/sdk'],
  ['plain', 'a client the relay does not know', null],
];
// Rows: the causes, as the refusal cases name them.
const CAUSES = [
  'unknown model',
  'host down',
  'host leased',
  'the engine fails to start',
  'the engine dies while it starts',
  'a lease is taken while it waits',
  'the engine answers 500',
  'the engine answers 400',
  "an error event inside the engine's stream",
  'the relay shuts down while it waits',
];
export const BEGIN = '<!-- refusal-table: written by tests/e2e/tools/refusal-table.mjs, checked by e2e_refusal_table -->';
export const END = '<!-- /refusal-table -->';

export const cellFile = (dir, client, cause) => path.join(dir, `${client}--${cause.replace(/[^a-z0-9]+/gi, '-')}.json`);

function versions() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const lock = JSON.parse(readFileSync(path.join(here, '..', 'package-lock.json'), 'utf8'));
  return (name) => lock.packages?.[`node_modules/${name}`]?.version;
}

export function table(dir) {
  const version = versions();
  const cells = new Map();
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const cell = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    cells.set(`${cell.client}\n${cell.cause}`, cell);
  }
  const head = CLIENTS.map(([, title, pkg]) => (pkg ? `${title} ${version(pkg)}` : title));
  const lines = [`| cause | the relay answers | ${head.join(' | ')} |`, `|---|---|${CLIENTS.map(() => '---').join('|')}|`];
  for (const cause of CAUSES) {
    const row = CLIENTS.map(([client]) => cells.get(`${client}\n${cause}`));
    const answer = row.find((c) => c)?.answer ?? '';
    lines.push(`| ${cause} | ${answer} | ${row.map((c) => (c ? c.requests : '—')).join(' | ')} |`);
  }
  return lines.join('\n');
}

function main() {
  const [dir, mode, doc] = process.argv.slice(2);
  if (!dir || !['--check', '--write'].includes(mode) || !doc) {
    console.error('usage: refusal-table.mjs DIR --check|--write DOC');
    process.exit(2);
  }
  const measured = table(dir);
  const text = readFileSync(doc, 'utf8');
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from < 0 || to < from) {
    console.error(`${doc}: no table markers (${BEGIN} ... ${END})`);
    process.exit(1);
  }
  const written = text.slice(from + BEGIN.length, to).trim();
  console.log(measured);
  if (mode === '--write') {
    writeFileSync(doc, `${text.slice(0, from + BEGIN.length)}\n${measured}\n${text.slice(to)}`);
    return;
  }
  if (written !== measured) {
    console.error(`\n${doc} says otherwise:\n${written}\n\nThe table above is what this run measured: `
                  + `a client changed what it does, or a refusal test did not run (a "—" where the doc has a count). `
                  + `Run the e2e tests, then this with --write, and say why in docs/CLIENTS.md.`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  main();
