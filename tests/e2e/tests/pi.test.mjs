// Case 4: pi with the exported models.json. pi exits 0 even when its call failed, so the test
// reads the assistant message's stopReason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scratchHome, startFake, startRelay } from '../lib/harness.mjs';
import { installPiModels, piLastAssistant, piText, runPi } from '../lib/clients.mjs';

test('pi -p with the exported models.json completes a turn', async (t) => {
  // A realistic context: pi compacts after any turn once the context is below its 16384-token
  // reserve, which would add a summary request.
  const fake = await startFake(t, {
    models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '8', '--model-ctx', 'flint-40b=65536'],
  });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);
  const home = scratchHome(t);
  const agentDir = await installPiModels(t, home, ['--base-url', relay.url]);

  const exported = JSON.parse(readFileSync(path.join(agentDir, 'models.json'), 'utf8')).providers.switchyard;
  assert.deepEqual(exported.models, [{ id: 'h1-flint-40b', name: 'h1-flint-40b', contextWindow: 65536, maxTokens: 16384 }]);

  const run = await runPi(t, home, agentDir, 'h1-flint-40b');
  assert.equal(run.code, 0, run.stderr);
  const message = piLastAssistant(run);
  assert.ok(message, `pi reported no assistant message: ${run.stdout.slice(-2000)} ${run.stderr.slice(-2000)}`);
  assert.equal(message.stopReason, 'stop', JSON.stringify(message).slice(0, 2000));
  assert.match(piText(message), /tok0 tok1/);

  const seen = await fake.inferenceRequests();
  assert.equal(seen.length, 1);
  assert.equal(seen[0].json.model, 'flint-40b');
  assert.equal(seen[0].json.max_completion_tokens, undefined, 'the export asks pi for max_tokens, which llama.cpp reads');
  assert.equal(seen[0].json.max_tokens, 16384, 'the output limit the export derived from the host\'s context');
});
