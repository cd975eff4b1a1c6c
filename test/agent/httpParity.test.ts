/**
 * Parity over HTTP: the real loop → openai SDK → HTTP → `loopcost serve` (answering from the trace) →
 * back, with tools answered from the trace, agrees exactly with replay of the same trace and settings —
 * on 250 short random traces covering every brake and stop reason (issue 11) and on every shared real
 * run, a few conversations at once against one server (keep-alive; per-session headers). The harness
 * (overHttp.ts) reads from serve's `loopcost` response extension only what Chat Completions cannot carry
 * (marks, tool results' sizes, latencies): usage — cache writes and a recorded failed call's billed usage
 * included — is what the adapter itself reads.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { PriceTable } from '../../src/pricing/types.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { collectAsync, handTable, trace } from '../helpers.js';
import { figures, replayFigures, runTraceDriven, type Settings } from './traceDriven.js';
import { runOverHttp } from './overHttp.js';

/** check(0 … count−1), a few conversations at once (each its own session: x-loopcost-session / x-loopcost-trace). */
async function inConversations(count: number, check: (index: number) => Promise<void>, conversations = 4): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await check(next++);
  };
  await Promise.all(Array.from({ length: conversations }, worker));
}

async function serving(traces: readonly Trace[], prices: PriceTable): Promise<RunningServer> {
  return startServer({ sources: { traces }, prices, cache: 'recorded' });
}

describe('real loop → openai SDK → HTTP → loopcost serve = replay', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  // 250 (were 1,000, then 500) reach every stop reason asserted, the rarest (repeat) 5 times; the first 1,000 draws of this seed hold these 250.
  it('on 250 short random traces and brakes, every stop reason but aborted and provider_refused (a recorded failed call is no refusal), in concurrent conversations', async () => {
    const samples = fc.sample(fc.tuple(fc.array(callArb, { maxLength: 14 }), brakesArb, fc.constantFrom(...pricings)), { numRuns: 250, seed: 2222 });
    const traces = samples.map(([calls, , pricing], i) => ({ ...trace(calls, { origin: 'recorded', model: pricing.model }), source: `random-${i}` }));
    const server = await serving(traces, handTable(...pricings));
    servers.push(server);
    const reasons = new Set<string>();
    const check = async (i: number) => {
      const [, brakes, pricing] = samples[i]!;
      const settings: Settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'full', cache: 'recorded' }, pricing };
      const real = figures(await runOverHttp(server, traces, i, settings));
      expect(real, `trace ${i}`).toEqual(replayFigures(traces[i]!, settings));
      reasons.add(real.stopReason);
    };
    await inConversations(samples.length, check);
    expect([...reasons].sort()).toEqual(STOP_REASONS.filter((reason) => reason !== 'aborted' && reason !== 'provider_refused').sort());
  });

  it('on every shared real run (../shared/traces): in-process under each brake, over HTTP as recorded', async () => {
    const traces = await collectAsync(loadTraceFiles(collectInputs(['../shared/traces'])));
    expect(traces.length).toBeGreaterThan(60);
    const prices = loadPriceTable({ overridesFile: 'test/fixtures/prices/deepseek-recorded.json' });
    const settingsOf = (spec: string, t: Trace): Settings => ({ brakes: brakesFromSpec(spec), strategy: { kind: 'full', cache: 'recorded' }, pricing: resolveTracePricing(t, { prices }) });
    const reasons = new Set<string>();
    for (const spec of ['max-steps=12,max-repeat=2', 'max-cost=0.02,budget-mode=predict', 'max-same-error=2,context-window=20000']) {
      for (const t of traces) {
        const real = figures(await runTraceDriven(t, settingsOf(spec, t)));
        expect(real, `${spec} ${t.source}`).toEqual(replayFigures(t, settingsOf(spec, t)));
        reasons.add(real.stopReason);
      }
    }
    expect([...reasons].sort()).toEqual(['budget', 'completed', 'context_overflow', 'error_limit', 'max_steps', 'repeat', 'trace_end']);
    const server = await serving(traces, prices);
    servers.push(server);
    await inConversations(traces.length, async (i) => {
      const settings = settingsOf('max-steps=250', traces[i]!);
      expect(figures(await runOverHttp(server, traces, i, settings)), traces[i]!.source).toEqual(replayFigures(traces[i]!, settings));
    });
  });
});
