/**
 * Why a synthetic agent has nothing more to send, worded once: the simulated run's `trace_end` detail
 * (src/scenario/run.ts) and the 409 `serve` answers past a synthetic session's end (src/serve/synthetic.ts).
 * Pure: no node:*.
 */
import type { AgentEnding } from './agent.js';

/**
 * How the agent ended (`ending`; undefined: after its final answer, which only a served session is asked
 * past), `hardCapSteps` the scenario's hard cap. A simulated run ends `trace_end` at the first three;
 * at `context_window` it ends `provider_refused` (its stop says why), and at a final answer `completed`.
 */
export function agentEndingWords(ending: AgentEnding | undefined, hardCapSteps: number): string {
  switch (ending) {
    case 'provider_error':
      return 'the provider failed the last call (synthetic)';
    case 'cut_off':
      return 'the synthetic run was cut off after its last step, unanswered';
    case 'hard_cap':
      return `no brake stopped it: the synthetic agent reached the hard cap of ${hardCapSteps} steps`;
    case 'context_window':
      return "the provider refused a prompt past the model's context window (synthetic)";
    case undefined:
      return 'the synthetic agent gave its final answer';
  }
}
