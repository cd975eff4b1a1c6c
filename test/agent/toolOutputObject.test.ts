/**
 * A tool whose run returns what the loop cannot take as its observation is told what it returned and what
 * to return. Before, a tool returning an object (`{ temp: 3 }`) was said to have returned undefined:
 * "tools.search.output is undefined, not a text" — misleading, it returned an object.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { LoopValueError } from '../../src/agent/valueCheck.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

/** The error of a run whose one tool call runs `search`, which returns `returned`. */
async function thrownFor(returned: unknown): Promise<LoopValueError> {
  const search = defineTool({ name: 'search', description: 'searches', parameters: { type: 'object' }, run: () => returned as string });
  const model = new ScriptedModel([toolTurn('search', {}), answer('done')]);
  const thrown = await runAgentLoop({ model, tools: [search], brakes: { maxSteps: 5 }, context: { system: 's', goal: 'g' }, pricing: MINI, clock: new VirtualClock() }).then(
    () => new Error('the run completed'),
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(LoopValueError);
  return thrown as LoopValueError;
}

describe("a tool's run returning no text: what it returned, and what to return", () => {
  it('an object ({ temp: 3 }) is said to be an object with no output, and how to give its data', async () => {
    const error = await thrownFor({ temp: 3, unit: 'C' });
    expect(error).toMatchObject({ source: 'tool', field: 'tools.search.output' });
    expect(error.message).toContain('run returned an object { temp, unit } with no output, not a text');
    expect(error.message).toContain('JSON.stringify(value)');
    expect(error.message).toContain('{ output: string, tokens?, error? }');
    expect(error.message).not.toMatch(/returned undefined|output is undefined, not a text/);
  });

  it.each<[string, unknown, string]>([
    ['undefined (a missing return)', undefined, 'run returned undefined (no return value), not a text'],
    ['a number', 42, 'run returned 42, not a text'],
    ['an array', ['a', 'b'], 'run returned an array (2 items), not a text: return a string (JSON.stringify(value)'],
    ['an output that is no text', { output: 42 }, 'tools.search.output is 42: run returned { output: 42 }, not a text'],
    ['a result without its output', { tokens: 3 }, 'run returned an object { tokens } with no output, not a text: return a string, or'],
  ])('%s: said as returned', async (_label, returned, said) => {
    const error = await thrownFor(returned);
    expect(error.field).toBe('tools.search.output');
    expect(error.message).toContain(said);
  });
});
