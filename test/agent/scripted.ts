/**
 * A scripted model double (as openai-agents-js tests do): it answers from a fixed script and fails
 * loudly — an Error the loop does not catch — on any call the script did not expect.
 */
import type { Model, ModelRequest, ModelTurn } from '../../src/agent/types.js';

export type Step = ModelTurn | Error | ((request: ModelRequest) => ModelTurn | Promise<ModelTurn>);

export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly script: Step[],
    readonly name = 'mini',
  ) {}

  async call(request: ModelRequest): Promise<ModelTurn> {
    this.requests.push(request);
    const step = this.script[this.requests.length - 1];
    if (step === undefined) throw new Error(`unexpected model call #${this.requests.length} (the script has ${this.script.length})`);
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step(request) : step;
  }
}

let ids = 0;
export function toolTurn(name: string, args: unknown, usage = { inputTokens: 1000, outputTokens: 50 }): ModelTurn {
  return { text: null, toolCalls: [{ id: `call_${++ids}`, name, arguments: JSON.stringify(args) }], usage };
}

export function answer(text: string, usage = { inputTokens: 1200, outputTokens: 20 }): ModelTurn {
  return { text, toolCalls: [], usage };
}
