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
// ../../../docs/CLIENTS.md without that variable ("claude-code-env"): one attempt as well, since
// the relay puts a completed text block before every error event it sends Claude Code.
import { test } from 'node:test';
import { FIRST_CLIENTS, engineErrors, engineFailsToStart, relayShutsDown, refuseAfterEarly200, refuseBeforeAnswering } from '../lib/refusalcases.mjs';

test('each client makes one attempt on a refusal', { concurrency: true }, (t) => refuseBeforeAnswering(t));

test('each client makes one attempt on a refusal that comes after the early 200', { concurrency: true },
  (t) => refuseAfterEarly200(t));

// The engine's own errors (issue 32, items 1 and 3): a 500 before it answers, a 400, an error
// event inside its stream. opencode's run is in opencode.test.mjs.
test('each client makes one attempt on the engine\'s own errors', { concurrency: true },
  (t) => engineErrors(t, FIRST_CLIENTS.filter((c) => c !== 'opencode')));

// An engine that fails to start before the early 200: a plain 424 (issue 32).
test('each client makes one attempt when the engine fails to start', { concurrency: true },
  (t) => engineFailsToStart(t));

// The relay shuts down while a request waits for its host (issue 32): its refusal, at once.
test('each client makes one attempt when the relay shuts down while it waits', { concurrency: true },
  (t) => relayShutsDown(t));
