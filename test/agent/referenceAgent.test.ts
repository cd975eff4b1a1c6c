/** examples/reference-agent.ts on a scripted model: run_python really runs, the run ends with its stop reason printed. */
import { describe, expect, it } from 'vitest';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer } from '../../src/serve/index.js';
import { referenceAgent, summaryLines } from '../../examples/reference-agent.js';
import type { ModelRequest } from '../../src/agent/types.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const lastToolResult = (request: ModelRequest) => request.messages.at(-1);

describe('examples/reference-agent.ts', () => {
  it('computes with run_python, checks once, answers; prints stop reason, steps, tokens and spend', async () => {
    const model = new ScriptedModel([
      toolTurn('run_python', { code: 'print(sum(i*i for i in range(1, 101)))' }),
      (request) => {
        expect(lastToolResult(request)).toMatchObject({ role: 'tool', content: '338350' });
        return toolTurn('run_python', { code: 'n = 100\nprint(n*(n+1)*(2*n+1)//6)' });
      },
      (request) => {
        expect(lastToolResult(request)).toMatchObject({ role: 'tool', content: '338350' });
        return answer('338350');
      },
    ]);
    const run = await referenceAgent({ model, pricing: MINI });
    const lines = summaryLines(run);
    expect(lines[0]).toBe('answer: 338350');
    expect(lines[1]).toBe('stop: completed (final answer after 3 steps)');
    // 3,200 prompt tokens at $0.15/M + 120 output tokens at $0.60/M.
    expect(lines[2]).toBe('steps: 3  calls: 3  tokens: 3200 in (0 cached) + 120 out  spent: $0.000552');
  });

  it('a failing program is an error observation; the same failure three times in a row is not a brake of the reference loop, the repeat brake is', async () => {
    const loop = Array.from({ length: 4 }, () => toolTurn('run_python', { code: 'raise SystemExit(1/0)' }));
    const run = await referenceAgent({ model: new ScriptedModel(loop), pricing: MINI });
    expect(run.stop).toEqual({ reason: 'repeat', detail: 'action run_python already seen 3 times in this run, limit 3' });
    expect(run.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content)[0]).toMatch(/^error: ZeroDivisionError/);
  });

  it('runs against loopcost serve (openai SDK over HTTP), running the recorded programs, and ends with its stop reason printed', async () => {
    const prices = loadPriceTable();
    const server = await startServer({ sources: { traces: await loadTraceFile('scenarios/reference-sum-of-squares.jsonl') }, prices });
    try {
      const model = openAIChatModel({ model: 'gpt-4o-mini', baseURL: `${server.url}/v1`, apiKey: 'loopcost' });
      const run = await referenceAgent({ model, pricing: prices.resolve('gpt-4o-mini') });
      const lines = summaryLines(run);
      expect(lines[1]).toBe('stop: completed (final answer after 3 steps)');
      expect(run.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content)).toEqual(['338350', '338350']);
      expect(server.sessions().totals.calls).toBe(3);
      expect(lines[2]).toMatch(/^steps: 3 {2}calls: 3 {2}tokens: \d+ in \(0 cached\) \+ 360 out {2}spent: \$0\.000\d+$/);
    } finally {
      await server.close();
    }
  });
});
