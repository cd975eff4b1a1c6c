/**
 * `generate --latency-model call=1e300` wrote `"latencyMs":1e+300`, which loopcost's own reader refuses
 * (more than 2^53 ms), and `output-token=1e307` wrote `"latencyMs":null`. Each part of a latency model is
 * now at most a day (MAX_LATENCY_PART_MS), refused naming the flag and the limit; a scenario file's
 * `latency` is held to the same limit by generate; and a run whose modelled latency a trace still could
 * not hold (absurd token sizes) is refused with no output file, never written.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latencyFromSpec } from '../../src/flags/settingsFlags.js';
import { UserError } from '../../src/errors.js';
import { MAX_LATENCY_MS } from '../../src/io/limits.js';
import { MAX_LATENCY_PART_MS } from '../../src/io/limits.js';
import { cli, tempDir } from './run.js';

const SCENARIO = 'scenarios/springfield-weather.yaml';

function refusal(spec: string): string {
  try {
    latencyFromSpec(spec);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).message;
  }
  throw new Error(`${spec} was taken`);
}

describe('latency model limits', () => {
  it('--latency-model refuses a part past a day, naming the flag, the part and the limit', () => {
    for (const spec of ['call=1e300', 'output-token=1e307', 'input-token=86400000.5', 'call=800,tool=1e20']) {
      const message = refusal(spec);
      expect(message).toContain("field '--latency-model'");
      expect(message).toContain(`is too large: at most ${MAX_LATENCY_PART_MS} ms (a day)`);
      expect(message).toContain(spec.split(',').at(-1)!);
    }
    expect(latencyFromSpec(`call=${MAX_LATENCY_PART_MS},output-token=15,input-token=0.02,tool=300`)).toEqual({ perCallMs: MAX_LATENCY_PART_MS, perInputTokenMs: 0.02, perOutputTokenMs: 15, perToolCallMs: 300 });
  });

  it('generate --latency-model call=1e300 / output-token=1e307: exit 2, nothing written', async () => {
    const dir = tempDir();
    const out = join(dir, 'g.jsonl');
    for (const spec of ['call=1e300', 'output-token=1e307']) {
      const { code, stderr } = await cli('generate', SCENARIO, '--runs', '3', '--latency-model', spec, '--out', out);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`--latency-model': '${spec}' is too large: at most 86400000 ms (a day)`);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('what generate writes at the largest parts, loopcost reads back', async () => {
    const dir = tempDir();
    const out = join(dir, 'g.jsonl');
    const spec = `call=${MAX_LATENCY_PART_MS},input-token=${MAX_LATENCY_PART_MS},output-token=${MAX_LATENCY_PART_MS},tool=${MAX_LATENCY_PART_MS}`;
    const made = await cli('generate', SCENARIO, '--runs', '3', '--latency-model', spec, '--out', out);
    expect(made.code, made.stderr).toBe(0);
    const latencies = [...readFileSync(out, 'utf8').matchAll(/"latencyMs":([^,}]+)/g)].map((m) => Number(m[1]));
    expect(latencies.length).toBeGreaterThan(0);
    for (const ms of latencies) expect(ms >= 0 && ms <= MAX_LATENCY_MS).toBe(true);
    const replayed = await cli('replay', out, '--format', 'json');
    expect(replayed.code, replayed.stderr).toBe(0);
  });

  it("a scenario file's latency past a day: every command refuses the file as it reads it, naming the line and each field", async () => {
    const dir = tempDir();
    const file = join(dir, 'slow.yaml');
    writeFileSync(file, readFileSync(SCENARIO, 'utf8').replace('latency: { call: 1200, tool: 300 }', 'latency: { call: 1e300, output-token: 1e307 }'));
    const out = join(dir, 'g.jsonl');
    for (const argv of [['generate', file, '--runs', '2', '--out', out], ['replay', file, '--runs', '2'], ['generate', file, '--runs', '2', '--latency-model', 'call=100', '--out', out]]) {
      const { code, stderr } = await cli(...argv);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/slow\.yaml:line \d+ field 'latency\.call': is 1e300: must be at most 86400000 ms \(a day\)/);
      expect(stderr).toContain("field 'latency.output-token'");
      expect(existsSync(out)).toBe(false);
    }
  });

  it('a run whose modelled latency a trace cannot hold (absurd token sizes) is refused, no file left', async () => {
    const dir = tempDir();
    const file = join(dir, 'huge.yaml');
    // 1.1e8 tokens a response at a day per token: 9.5e15 ms, past 2^53 ms (a run of 3 calls costs below $9,007);
    // asked for with max_tokens 1.1e8 on a model the table gives no window (one with a window refuses such a call).
    writeFileSync(file, readFileSync(SCENARIO, 'utf8').replace('model: gpt-4o-mini', 'model: gemini-2.5-pro').replace('outputTokens: { kind: uniform, min: 40, max: 90 }', 'outputTokens: 110000000').replace('givesUpAfter: 90', 'givesUpAfter: 3'));
    const out = join(dir, 'g.jsonl');
    const { code, stderr } = await cli('generate', file, '--runs', '2', '--latency-model', 'output-token=86400000', '--max-output-tokens', '110000000', '--out', out);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/<command line> field '--latency-model': run 1, call 1: a modelled latency of [\d.e+]+ ms is more than 2\^53 ms, the most a trace holds/);
    expect(readdirSync(dir)).toEqual(['huge.yaml']);
  });
});
