// Case 1: the OpenAI and Anthropic Node SDKs complete a streamed turn through the relay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startFake, startRelay } from '../lib/harness.mjs';

test('openai SDK streams a chat completion through the relay', async (t) => {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '6'] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);

  const client = new OpenAI({ baseURL: `${relay.url}/v1`, apiKey: 'switchyard', timeout: 30000 });
  const stream = await client.chat.completions.create({
    model: 'h1-flint-40b', stream: true, messages: [{ role: 'user', content: 'say hi' }],
  });
  let text = '';
  let finish;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assert.match(text, /tok0 tok1/);
  assert.equal(finish, 'stop');

  const seen = await fake.inferenceRequests();
  assert.equal(seen.length, 1, 'one request reached the box');
  assert.equal(seen[0].json.model, 'flint-40b', 'the box sees its own key, not the alias');
  const posts = await relay.waitForPosts(1);
  assert.deepEqual(posts.map((p) => [p.target, p.model, p.status]), [['/v1/chat/completions', 'h1-flint-40b', 200]]);
});

test('anthropic SDK streams a message through the relay', async (t) => {
  const fake = await startFake(t, { models: ['flint-40b'], loaded: ['flint-40b'], extraArgs: ['--max-reply-tokens', '6'] });
  const relay = await startRelay(t, { upstreams: { h1: fake.url } });
  await relay.waitForModels(['h1-flint-40b']);

  const client = new Anthropic({ baseURL: relay.url, apiKey: 'switchyard', timeout: 30000 });
  const stream = client.messages.stream({
    model: 'h1-flint-40b', max_tokens: 64, messages: [{ role: 'user', content: 'say hi' }],
  });
  let text = '';
  stream.on('text', (delta) => { text += delta; });
  const message = await stream.finalMessage();
  assert.match(text, /tok0 tok1/);
  assert.equal(message.stop_reason, 'end_turn');

  const seen = await fake.inferenceRequests();
  assert.equal(seen.length, 1);
  assert.equal(seen[0].path, '/v1/messages');
  assert.equal(seen[0].json.model, 'flint-40b');
  const posts = await relay.waitForPosts(1);
  assert.deepEqual(posts.map((p) => [p.target.split('?')[0], p.model, p.status]), [['/v1/messages', 'h1-flint-40b', 200]]);
});
