// Issue 32, item 4: a client the relay does not recognise gets the safe default. A hand-written
// client that sends a request again after a 5xx or a 429 (honouring Retry-After, ignoring
// X-Should-Retry), and after an error inside the stream that reads like one, makes exactly one
// request for every refusal: 404 unknown model, 424 host down, 423 leased, the same after the
// early 200 (the engine dies while it starts, a lease is taken while it waits), and the
// engine's own 500, 400 and error event inside its stream. Counted at a recording proxy and in
// the relay's journal (lib/refusalcases.mjs).
import { test } from 'node:test';
import { engineErrors, engineFailsToStart, relayShutsDown, refuseAfterEarly200, refuseBeforeAnswering } from '../lib/refusalcases.mjs';

test('a plain retrying client makes one request on a refusal', { concurrency: true },
  (t) => refuseBeforeAnswering(t, ['plain']));

test('a plain retrying client makes one request on a refusal after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t, ['plain']));

test('a plain retrying client makes one request on the engine\'s own errors', { concurrency: true },
  (t) => engineErrors(t, ['plain']));

test('a plain retrying client makes one request when the engine fails to start', { concurrency: true },
  (t) => engineFailsToStart(t, ['plain']));

test('a plain retrying client makes one request when the relay shuts down while it waits', { concurrency: true },
  (t) => relayShutsDown(t, ['plain']));
