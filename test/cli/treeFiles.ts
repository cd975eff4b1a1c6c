/**
 * The lines of a small session tree's files (a main agent that starts sub-agent `sub` with tool call t1, the
 * sub-agent, a loose run of no tree) and a directory made of them: what the `--tree --skip-bad` tests lay out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './run.js';

export const header = (agent: string, model = 'gpt-4o') => `{"type":"header","schema":"loopcost.trace/1","model":"${model}","systemTokens":10,"goalTokens":5${agent === '' ? '' : `,"agent":${agent}`}}`;
export const END = '{"type":"end","outcome":"completed"}';
export const CALL = '{"type":"call","inputTokens":100,"outputTokens":5}';
export const MAIN_AGENT = '{"sessionId":"s1","agentId":"main","kind":"main"}';
/** The main agent's call that starts the sub-agent. */
export const STARTS_SUB = '{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"Task","arguments":{"t":"x"},"resultTokens":10,"id":"t1","startedAgentId":"sub"}]}';
export const SUB_AGENT = '{"sessionId":"s1","agentId":"sub","kind":"subagent","parentAgentId":"main","parentToolCallId":"t1"}';
/** The sub-agent's file: its third line is no JSON (bad on reading). */
export const SUB_MALFORMED = [header(SUB_AGENT), CALL, '{"type":"call", oops', END];
/** A run of no tree. */
export const OTHER = [header(''), CALL, END];

/** `files` (name → lines) in a new directory. */
export function dirOf(files: Record<string, string[]>): string {
  const dir = join(tempDir(), 'trees');
  mkdirSync(dir);
  for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, name), lines.join('\n') + '\n');
  return dir;
}
