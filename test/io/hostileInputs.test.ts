/**
 * Hostile and absurd inputs, one test per class (issue 14): sizes, depth and aliases, special files,
 * magnitudes, cross-field rules, duplicate keys. Each is refused by one rule with a message naming the
 * file (and line and field where there is one), or read correctly; never an internal error.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { importOtlpJson } from '../../src/import/otel.js';
import { importSweAgent } from '../../src/import/sweAgent.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf, userErrorOf } from '../helpers.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const CALL = '{"type":"call","inputTokens":100,"outputTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const dir = tempDir();
const write = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const native = (...calls: string[]): string => [HEADER, ...calls, END].join('\n') + '\n';
const MINI = readFileSync('test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json', 'utf8');
const KB = 1024;

describe('sizes: checked before a string is built', () => {
  it('a one-document file past --max-line-mb is refused by its size, before it is read', async () => {
    const error = await asyncUserErrorOf(() => loadTraceFile(write('big.traj.json', MINI), { limits: { maxLineBytes: 10 * KB } }));
    expect(error.issues[0]).toMatchObject({ file: join(dir, 'big.traj.json'), code: 'too_large' });
    expect(error.message).toMatch(/one document of more than 10,240 bytes, the most one record may hold.*--max-line-mb/);
  });

  it('a gzip bomb stops at --max-input-mb, and a gzip line past --max-line-mb at its line', async () => {
    const bomb = write('bomb.jsonl.gz', gzipSync(Buffer.concat([Buffer.from(HEADER + '\n'), Buffer.alloc(8 << 20, 0x20)])));
    expect((await asyncUserErrorOf(() => loadTraceFile(bomb, { limits: { maxInputBytes: 1 << 20 } }))).message).toMatch(/decompresses to more than 1 MB.*--max-input-mb/);
    const line = (await asyncUserErrorOf(() => loadTraceFile(bomb, { limits: { maxLineBytes: 1 << 20 } }))).issues[0];
    expect(line).toMatchObject({ line: 2, code: 'too_large' });
  });

  it('a plain file past --max-input-mb is refused before it is read', async () => {
    const error = await asyncUserErrorOf(() => loadTraceFile(write('plain.jsonl', native(CALL)), { limits: { maxInputBytes: 100 } }));
    expect(error.issues[0]).toMatchObject({ code: 'too_large' });
    expect(error.message).toMatch(/holds more than/);
  });

  it('blank lines are skipped at byte speed and still counted in line numbers', async () => {
    const blanks = '\n'.repeat(2_000_000) + ' \t\r\n'.repeat(1000);
    const path = write('blanks.jsonl.gz', gzipSync(`${HEADER}\n${blanks}${CALL}\n${blanks}{"type":"call","outputTokens":-1}\n${END}\n`));
    const error = await asyncUserErrorOf(() => loadTraceFile(path));
    expect(error.issues[0]).toMatchObject({ line: 2 + 2 * 2_001_000 + 1, field: 'outputTokens', code: 'negative_number' });
    const good = write('blanks-ok.jsonl.gz', gzipSync(`${HEADER}\n${blanks}${CALL}\n${blanks}${END}\n`));
    expect((await loadTraceFile(good))[0]!.calls).toHaveLength(1);
  });
});

describe('depth and aliases: one limit for every reader', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  it('native: 100,000 levels of [ in tool arguments, refused at read time naming line and field', async () => {
    const path = write('deep.jsonl', native(`{"type":"call","outputTokens":4,"toolCalls":[{"name":"x","resultTokens":1,"arguments":${deep(100_000)}}]}`));
    expect((await asyncUserErrorOf(() => loadTraceFile(path))).issues[0]).toMatchObject({ line: 2, code: 'too_deep', field: expect.stringMatching(/^toolCalls\[0\]\.arguments\[0\]/) });
  });

  it('mini-swe-agent: deep arguments in the JSON string of a tool call, and a deep document', () => {
    const doc = JSON.parse(MINI);
    const k = doc.messages.findIndex((m: { role: string; tool_calls?: unknown[] }) => m.role === 'assistant' && m.tool_calls?.length);
    doc.messages[k].tool_calls[0].function.arguments = deep(300);
    expect(userErrorOf(() => importMiniSweAgent(JSON.stringify(doc), 'm.json')).issues).toContainEqual(
      expect.objectContaining({ field: `messages[${k}].tool_calls[0].function.arguments`, code: 'too_deep' }),
    );
    const nested = `{"info":{},"messages":[],"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    expect(userErrorOf(() => importMiniSweAgent(nested, 'n.json')).issues[0]).toMatchObject({ code: 'too_deep', line: 1, field: expect.stringMatching(/^x\.a\.a/) });
  });

  it('OTLP: deep tool arguments name the span attribute', () => {
    const args = { key: 'gen_ai.tool.call.arguments', value: { stringValue: deep(300) } };
    const span = (id: string, start: number, op: string, attrs: unknown[]) => ({ traceId: 't', spanId: id, name: op, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 10), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: op } }, ...attrs] });
    const usage = [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } }, { key: 'gen_ai.usage.input_tokens', value: { intValue: '10' } }, { key: 'gen_ai.usage.output_tokens', value: { intValue: '2' } }];
    const text = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span('a', 0, 'chat', usage), span('b', 20, 'execute_tool', [{ key: 'gen_ai.tool.name', value: { stringValue: 'bash' } }, args])] }] }] });
    expect(userErrorOf(() => importOtlpJson(text, 'o.json')).issues[0]).toMatchObject({ code: 'too_deep', field: expect.stringContaining("attributes['gen_ai.tool.call.arguments']") });
  });

  it('SWE-agent args.yaml: an alias ladder (billion laughs) and deep nesting are refused naming the sidecar', () => {
    const traj = readFileSync('test/fixtures/swe-agent/gpt4__swe-agent__test-repo-i1.traj', 'utf8');
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`)].join('\n');
    expect(userErrorOf(() => importSweAgent(traj, 't.traj', { sidecarArgsYaml: laughs, sidecarPath: 'l.args.yaml' })).issues[0]).toMatchObject({ file: 'l.args.yaml', code: 'invalid_yaml' });
    const nested = `agent: ${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(userErrorOf(() => importSweAgent(traj, 't.traj', { sidecarArgsYaml: nested, sidecarPath: 'd.args.yaml' })).issues[0]).toMatchObject({ file: 'd.args.yaml', code: 'too_deep' });
  });
});

describe('special files: only regular files and pipes', () => {
  it('/dev/zero (a character device) is refused at once', async () => {
    const error = await asyncUserErrorOf(() => loadTraceFile('/dev/zero'));
    expect(error.issues[0]).toMatchObject({ file: '/dev/zero', code: 'not_a_file' });
  });

  it('a FIFO without a writer is refused after the pipe wait; with one, it is read, and what it may send is bounded', async () => {
    const fifo = join(dir, 'runs.fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect((await asyncUserErrorOf(() => loadTraceFile(fifo, { limits: { pipeWaitMs: 300 } }))).issues[0]).toMatchObject({ file: fifo, code: 'pipe_no_data' });
    expect(Date.now() - started).toBeLessThan(5000);
    const writer = spawn('sh', ['-c', `printf '%s\\n' '${HEADER}' '${CALL}' '${END}' > ${fifo}`]);
    expect((await loadTraceFile(fifo))[0]!.calls).toHaveLength(1);
    await new Promise((resolve) => writer.on('exit', resolve));
    const flood = spawn('sh', ['-c', `(echo '${HEADER}'; yes '${CALL}') > ${fifo} 2>/dev/null`]);
    expect((await asyncUserErrorOf(() => loadTraceFile(fifo, { limits: { maxInputBytes: 1 << 20 } }))).issues[0]).toMatchObject({ code: 'too_large' });
    flood.kill();
  });
});

describe('magnitudes, cross-field rules and duplicate keys: one rule for every format', () => {
  const mini = (edit: (usage: Record<string, unknown>, doc: { messages: Record<string, unknown>[] }) => void) => {
    const doc = JSON.parse(MINI);
    const k = doc.messages.findIndex((m: { role: string }) => m.role === 'assistant');
    edit(doc.messages[k].extra.response.usage, doc);
    return { text: JSON.stringify(doc), at: `messages[${k}].extra.response.usage` };
  };

  it('token counts past 2^53 are refused at import (mini-swe-agent, OTel int64 maximum, native)', async () => {
    for (const value of [2 ** 60, 1e308]) {
      const { text, at } = mini((usage) => (usage.prompt_tokens = value));
      expect(userErrorOf(() => importMiniSweAgent(text, 'm.json')).issues).toContainEqual(expect.objectContaining({ field: `${at}.prompt_tokens`, code: 'too_large' }));
    }
    const span = { traceId: 't', spanId: 's', name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }, { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } }, { key: 'gen_ai.usage.input_tokens', value: { intValue: '9223372036854775807' } }, { key: 'gen_ai.usage.output_tokens', value: { intValue: '1' } }] };
    expect(userErrorOf(() => importOtlpJson(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }), 'o.json')).issues[0]).toMatchObject({ code: 'too_large', field: expect.stringContaining('gen_ai.usage.input_tokens') });
    const path = write('huge.jsonl', native('{"type":"call","inputTokens":1152921504606846976,"outputTokens":1}'));
    expect((await asyncUserErrorOf(() => loadTraceFile(path))).issues[0]).toMatchObject({ line: 2, field: 'inputTokens', code: 'too_large' });
  });

  it('a run costing more than exact picodollars names its file, run and field (one call past them on its own: its line and field)', async () => {
    const path = write('costly.jsonl', native(CALL, CALL) + native('{"type":"call","inputTokens":4000000000000000,"outputTokens":1}'));
    const traces = await loadTraceFile(path);
    const error = userErrorOf(() => replayTrace(traces[1]!, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: loadPriceTable() }));
    expect(error.issues[0]).toMatchObject({ file: `${path}#2`, line: 6, field: 'inputTokens', code: 'cost_out_of_range' });
  });

  it('cached > input is refused in native files as in mini-swe-agent; cache read + write ≤ input; reasoning ≤ output', async () => {
    const cases: [string, string][] = [
      ['{"type":"call","inputTokens":100,"cachedInputTokens":900,"outputTokens":5}', 'cachedInputTokens'],
      ['{"type":"call","inputTokens":100,"cachedInputTokens":60,"cacheWriteTokens":60,"outputTokens":5}', 'cacheWriteTokens'],
      ['{"type":"call","inputTokens":100,"outputTokens":5,"reasoningTokens":6}', 'reasoningTokens'],
    ];
    for (const [call, field] of cases) {
      expect((await asyncUserErrorOf(() => loadTraceFile(write('x.jsonl', native(call))))).issues[0]).toMatchObject({ line: 2, field, code: 'inconsistent_usage' });
    }
    const { text, at } = mini((usage) => (usage.prompt_tokens_details = { cached_tokens: 10 ** 9 }));
    expect(userErrorOf(() => importMiniSweAgent(text, 'm.json')).issues).toContainEqual(expect.objectContaining({ field: `${at}.prompt_tokens_details.cached_tokens`, code: 'inconsistent_usage' }));
  });

  it('time never runs backwards: an OTel span that ends before it starts, a trajectory message timestamped before the last', () => {
    const span = { traceId: 't', spanId: 's', name: 'chat', startTimeUnixNano: '2000', endTimeUnixNano: '1000', attributes: [] };
    expect(userErrorOf(() => importOtlpJson(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }), 'o.json')).issues[0]).toMatchObject({ code: 'end_before_start', field: 'resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano' });
    const { text } = mini((_usage, doc) => {
      const stamped = doc.messages.filter((m) => (m.extra as { timestamp?: number } | undefined)?.timestamp !== undefined);
      (stamped[2]!.extra as { timestamp: number }).timestamp = 0;
    });
    expect(userErrorOf(() => importMiniSweAgent(text, 'm.json')).issues).toContainEqual(expect.objectContaining({ code: 'end_before_start' }));
  });

  it('a JSON key given twice is refused like a YAML one (native line, trajectory document)', async () => {
    const path = write('dup.jsonl', native('{"type":"call","outputTokens":-5,"outputTokens":40}'));
    expect((await asyncUserErrorOf(() => loadTraceFile(path))).issues[0]).toMatchObject({ line: 2, field: 'outputTokens', code: 'duplicate_key' });
    const doc = MINI.replace('"info": {', '"info": {"exit_status": "x", ').replace('"info":{', '"info":{"exit_status":"x",');
    expect(userErrorOf(() => importMiniSweAgent(doc, 'm.json')).issues[0]).toMatchObject({ code: 'duplicate_key', field: 'info.exit_status' });
  });

  it('a long key given twice is named by its start and length, not echoed whole', async () => {
    const key = 'k'.repeat(100_000);
    const path = write('longdup.jsonl', native(`{"type":"call","outputTokens":4,"${key}":1,"${key}":2}`));
    const issue = (await asyncUserErrorOf(() => loadTraceFile(path))).issues[0]!;
    expect(issue).toMatchObject({ line: 2, code: 'duplicate_key', message: `key "${'k'.repeat(100)}… (100,000 characters)" is given twice in the same object` });
    expect(issue.field!.length).toBeLessThan(200);
  });
});
