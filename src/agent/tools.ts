/**
 * The typed tool registry: a tool call the model wrote becomes an observation. An unknown tool gets a
 * refusal and arguments that are not a JSON object an error observation, without running anything (a
 * tool answered from a recording, `fromRecording`, gets the text as written); a tool that throws gives an
 * error observation (`error: ` and what it threw, thrownWords.ts). Every failure carries an error text, which the same-tool-same-error brake compares.
 */
import { checkArguments, functionIssue, objectArgumentIssue, stringIssue } from '../options/arguments.js';
import { thrownWords } from './thrownWords.js';
import type { AgentTool, ModelToolCall, ToolContext, ToolResult } from './types.js';

const TOOL_HINT = "defineTool({ name: 'search', description: 'Searches the web', parameters: { type: 'object', properties: { … } }, run: (args) => … })";

/**
 * Declares a tool with typed arguments (the JSON Schema describes them to the model). A tool that is no
 * object, or lacks its name, description, schema or run, is refused at once (`<defineTool arguments>` field
 * 'tool.run'), not when a run first uses it; runAgentLoop checks the name's form and that no two share it.
 */
export function defineTool<Args>(tool: AgentTool<Args>): AgentTool<Args> {
  checkArguments('defineTool', (issue) => {
    if (!objectArgumentIssue(issue, tool, { field: 'tool', hint: TOOL_HINT })) return;
    if (tool.name === '') issue('tool.name', 'missing_input', 'is empty', TOOL_HINT);
    else stringIssue(issue, tool.name, { field: 'tool.name', hint: TOOL_HINT });
    stringIssue(issue, tool.description, { field: 'tool.description', hint: TOOL_HINT });
    objectArgumentIssue(issue, tool.parameters, { field: 'tool.parameters', hint: "the arguments' JSON Schema, e.g. { type: 'object', properties: { query: { type: 'string' } } }" });
    functionIssue(issue, tool.run, { field: 'tool.run', hint: 'run(args, context) returns the observation: a string, or { output, tokens?, error? }' });
  });
  return tool;
}

/**
 * What running a tool call gave the loop; `cutOff`: its signal cut it — it threw once the signal had fired (or,
 * answered from a recording, it is the tool call a deadline cut there: traceModel.ts). The loop reaches no tool call after it.
 */
export type ToolRun = ToolResult & { cutOff?: true };

export class ToolRegistry {
  private readonly byName = new Map<string, AgentTool<any>>();

  constructor(tools: readonly AgentTool<any>[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
      this.byName.set(tool.name, tool);
    }
  }

  get specs() {
    return [...this.byName.values()].map(({ name, description, parameters }) => ({ name, description, parameters }));
  }

  /** Runs one tool call; never throws (a failure is an observation). */
  async run(call: ModelToolCall, context: ToolContext): Promise<ToolRun> {
    const tool = this.byName.get(call.name);
    if (tool === undefined) {
      const known = [...this.byName.keys()].join(', ');
      const error = `unknown tool ${JSON.stringify(call.name)}`;
      return { output: `refused: ${error}; the tools are: ${known}`, error };
    }
    const args = tool.fromRecording ? call.arguments : parseArguments(call.arguments);
    if (!tool.fromRecording && typeof args === 'string') return { output: `refused: ${args}`, error: args };
    try {
      const result = await tool.run(args, context);
      return typeof result === 'string' ? { output: result } : result;
    } catch (thrown) {
      const error = thrownWords(thrown);
      return { output: `error: ${error}`, error, ...(context.signal?.aborted === true ? { cutOff: true as const } : {}) };
    }
  }
}

/**
 * The arguments object, or why it is not one. Arguments that are no text at all (a Model of one's own
 * handing over `null` or an object, against ModelToolCall's type) are refused so too, not thrown on.
 */
export function parseArguments(text: string): Record<string, unknown> | string {
  if (typeof text !== 'string') return 'arguments are not JSON text';
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'arguments are not valid JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'arguments are not a JSON object';
  return value as Record<string, unknown>;
}

/** The arguments as a trace records them: the object, or the raw text when it is not one. */
export function recordedArguments(text: string): unknown {
  const parsed = parseArguments(text);
  return typeof parsed === 'string' ? text : parsed;
}
