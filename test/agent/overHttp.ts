/**
 * The real loop → openai SDK → HTTP → `loopcost serve` answering from a trace → back, with tools answered
 * from the trace. The harness reads from serve's `loopcost` response extension only what Chat Completions
 * cannot carry: a response's marks (backtrack, compaction, unparseable, final; a failed call's compaction), its tool results' sizes
 * and errors, latencies; usage — cache writes and a recorded failed call's billed usage included — is what
 * the adapter (openAIChatModel) itself reads.
 */
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { ModelCallError, type AgentTool, type Model, type ModelTurn } from '../../src/agent/types.js';
import type { RunningServer } from '../../src/serve/index.js';
import type { ToolCallRecord, Trace } from '../../src/trace/types.js';
import { TRACE_RETRY, type Settings } from './traceDriven.js';
import { serveClient } from './serveClient.js';
import { reasoningReentersOf } from '../../src/kernel/stepTokens.js';

let sessions = 0;

const largestOutput = (t: Trace): number => t.calls.reduce((most, call) => Math.max(most, call.outputTokens), 1);

/** Trace `index` of the server's traces, in its own session (x-loopcost-session / x-loopcost-trace). */
export async function runOverHttp(server: RunningServer, traces: readonly Trace[], index: number, settings: Settings) {
  const t = traces[index]!;
  const clock = new VirtualClock();
  const { client, last } = serveClient(server, { session: `parity-${++sessions}`, traceIndex: index });
  const http = openAIChatModel({ model: t.header.model, client });
  let results: readonly ToolCallRecord[] = [];
  const model: Model = {
    name: t.header.model,
    async call(request) {
      let turn: ModelTurn;
      try {
        // The cap the recording's own loop ran under was at least its largest output: sent so, serve
        // cuts nothing (a smaller cap is cut as a provider cuts it: test/serve/outputCap.test.ts).
        turn = await http.call({ ...request, maxOutputTokens: Math.max(request.maxOutputTokens, largestOutput(t)) });
      } catch (error) {
        if (!(error instanceof ModelCallError)) throw error;
        const { record } = last();
        clock.advance(record.latencyMs ?? 0);
        // Retried as the adapter reads it (serve's `x-should-retry: true` on a recorded failure the run went on past, a 400 too;
        // TRACE_RETRY retries as often as the trace failed); billed as the adapter read it; a failed summary call stays one (no step).
        throw record.compaction ? new ModelCallError(error.message, { ...error.options, compaction: true }) : error;
      }
      const { record } = last();
      clock.advance(record.latencyMs ?? 0);
      results = record.toolCalls ?? [];
      // Usage (cache writes included) is the adapter's own reading of the response.
      return { ...turn, marks: { final: record.final, backtrack: record.backtrack, compaction: record.compaction, unparseable: record.unparseable } };
    },
  };
  const names = new Set(t.calls.flatMap((c) => (c.toolCalls ?? []).map((tool) => tool.name)));
  const tools: AgentTool[] = [...names].map((name) => ({
    name,
    description: name,
    parameters: { type: 'object' },
    run(_args, { callId }) {
      const at = results.findIndex((r, j) => (r.id ?? null) === callId || callId.endsWith(`_${j + 1}`));
      const recorded = results[at]!;
      clock.advance(recorded.latencyMs ?? 0);
      return { output: 'recorded', tokens: recorded.resultTokens, ...(recorded.error ? { error: recorded.error } : {}) };
    },
  }));
  return agentLoop({
    model,
    tools,
    brakes: settings.brakes,
    context: { system: 's', goal: 'g', systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens, strategy: settings.strategy },
    pricing: settings.pricing,
    clock,
    retry: TRACE_RETRY,
    countTokens: () => 0,
    // Serve bills each call's recorded prompt: whether the recorded run's reasoning entered it is its header's (traceModel's reasoningInPrompt).
    reasoningInPrompt: reasoningReentersOf(t),
  });
}

