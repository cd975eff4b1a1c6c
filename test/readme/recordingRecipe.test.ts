/**
 * docs/recording.md's JS recipe stays true: its ```js block (`recordingFetch.mjs`) is written to a user's
 * project as is and given to the `openai` client of a small tool loop, run against `loopcost serve` of a
 * recorded run; the exchanges.jsonl it leaves must replay as that recorded run (the same calls, tool calls,
 * tokens and cost), non-streamed and streamed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { cliJson } from '../cli/run.js';

const RECORDED = 'test/fixtures/cassettes/openai-chat-tool-retry.yaml';

/** The recipe: the ```js block of docs/recording.md that opens with `// recordingFetch.mjs`. */
export function recordingRecipe(doc: string): string {
  const block = [...doc.matchAll(/^```js\s*\n([\s\S]*?)^```\s*$/gm)].map((m) => m[1]!).find((code) => code.startsWith('// recordingFetch.mjs'));
  if (block === undefined) throw new Error('docs/recording.md: no ```js block opening with // recordingFetch.mjs');
  return block;
}

/** A tool loop on the `openai` client with the recipe's fetch: answers every tool call `ok` until a text answer. */
const agent = (baseUrl: string, stream: boolean) => `
import OpenAI from 'openai';
import { recordingFetch } from './recordingFetch.mjs';
const client = new OpenAI({ baseURL: '${baseUrl}/v1', apiKey: 'unused', maxRetries: 0, fetch: recordingFetch });
const messages = [{ role: 'user', content: 'go' }];
const tools = [{ type: 'function', function: { name: 'tool', parameters: { type: 'object' } } }];
for (let call = 0; call < 10; call++) {
  let message;
  if (${stream}) {
    const chunks = await client.chat.completions.create({ model: 'gpt-4o', messages, tools, stream: true, stream_options: { include_usage: true } });
    message = { role: 'assistant', content: '', tool_calls: [] };
    for await (const chunk of chunks) {
      const delta = chunk.choices[0]?.delta ?? {};
      message.content += delta.content ?? '';
      for (const t of delta.tool_calls ?? []) {
        const into = (message.tool_calls[t.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        into.id += t.id ?? ''; into.function.name += t.function?.name ?? ''; into.function.arguments += t.function?.arguments ?? '';
      }
    }
    if (message.tool_calls.length === 0) delete message.tool_calls;
  } else message = (await client.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0].message;
  messages.push(message);
  if (!message.tool_calls?.length) break;
  for (const t of message.tool_calls) messages.push({ role: 'tool', tool_call_id: t.id, content: 'ok' });
}
`;

const prices = loadPriceTable();
let server: RunningServer;

beforeAll(async () => {
  const [trace] = (await loadTraceFile(RECORDED)) as [Trace];
  server = await startServer({ sources: { traces: [trace] }, prices, port: 0 });
});
afterAll(() => server.close());

/** The figures of a replay that say which calls a run made and what they cost. */
async function runFigures(path: string) {
  const { runs } = await cliJson('replay', path);
  expect(runs).toHaveLength(1);
  const { stopReason, steps, modelCalls, toolCalls, failedCalls, inputTokens, cachedInputTokens, outputTokens, costUsd } = runs[0];
  return { stopReason, steps, modelCalls, toolCalls, failedCalls, inputTokens, cachedInputTokens, outputTokens, costUsd };
}

describe("docs/recording.md's fetch recorder", () => {
  const recipe = recordingRecipe(readFileSync('docs/recording.md', 'utf8'));

  for (const stream of [false, true]) {
    it(`records a loop's calls${stream ? ' (streamed)' : ''} as exchanges that replay as the run served`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'loopcost-recording-'));
      symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(join(dir, 'recordingFetch.mjs'), recipe);
      writeFileSync(join(dir, 'agent.mjs'), agent(server.url, stream));
      // Asynchronous: the server answering it runs in this process.
      const { stderr } = await promisify(execFile)(process.execPath, ['agent.mjs'], { cwd: dir });
      expect(stderr).toBe('');
      const recorded = await runFigures(RECORDED);
      expect(recorded).toMatchObject({ stopReason: 'completed', modelCalls: 3, toolCalls: 2 });
      expect(await runFigures(join(dir, 'exchanges.jsonl'))).toEqual(recorded);
    }, 60_000);
  }
});
