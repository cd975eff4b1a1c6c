/**
 * An OTLP run is dated by its spans (header.recordedAt = the earliest span start), as a cassette's run by
 * its interactions' dates, so it is priced as of the day it ran: an o3 run of 2025-06-01 (before o3's
 * price cut of 2025-06-10) cost $0.0257 at the table's release day, "1 run has no recording date", instead
 * of the $0.1284 it cost that day. Spans without times (0, OTLP's "not set") leave the run undated.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedAtOfNanos } from '../../src/import/common/timestamp.js';
import { cli, tempDir } from '../cli/run.js';

/** 2025-06-01T10:00:00Z in unix nanoseconds. */
const JUNE_1_NS = 1_748_772_000n * 1_000_000_000n;

const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });

function span(id: string, name: string, startNs: bigint, endNs: bigint, attributes: ReturnType<typeof attr>[]) {
  return { traceId: '5b8efff798038103d269b633813fc60c', spanId: id, name, startTimeUnixNano: String(startNs), endTimeUnixNano: String(endNs), attributes };
}

const chat = (id: string, startNs: bigint, inputTokens: number) =>
  span(id, 'chat o3', startNs, startNs === 0n ? 0n : startNs + 1_000_000_000n, [
    attr('gen_ai.operation.name', 'chat'),
    attr('gen_ai.system', 'openai'),
    attr('gen_ai.request.model', 'o3'),
    attr('gen_ai.usage.input_tokens', inputTokens),
    attr('gen_ai.usage.output_tokens', 120),
  ]);

/** An o3 run of two chat spans under an agent span starting half a second before them (`at` 0: no times). */
function otlpFile(at: bigint): string {
  const later = (ms: bigint) => (at === 0n ? 0n : at + ms * 1_000_000n);
  const agent = span('a0', 'invoke_agent support', later(0n), later(4000n), [attr('gen_ai.operation.name', 'invoke_agent')]);
  const spans = [agent, chat('c1', later(500n), 3000), chat('c2', later(2500n), 3900)];
  const file = join(tempDir(), 'otlp-o3.json');
  writeFileSync(file, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
  return file;
}

async function replayed(file: string, ...flags: string[]): Promise<{ cost: string; stdout: string }> {
  const r = await cli('replay', file, ...flags);
  expect(r.code, r.stderr).toBe(0);
  return { cost: /total cost\s+(\S+)/.exec(r.stdout)![1]!, stdout: r.stdout };
}

describe('OTLP runs dated by their spans', () => {
  it('import writes the earliest span start (the agent span, before the first chat) as recordedAt', async () => {
    const r = await cli('import', otlpFile(JUNE_1_NS - 500_000_000n));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!).recordedAt).toBe('2025-06-01T09:59:59.500Z');
  });

  it('a dated run is priced as of its day: the cost --prices-as-of 2025-06-01 gives, no "no recording date"', async () => {
    const file = otlpFile(JUNE_1_NS);
    const dated = await replayed(file);
    const asOfThatDay = await replayed(file, '--prices-as-of', '2025-06-01');
    const releaseDay = await replayed(otlpFile(0n));
    expect(dated.cost).toBe(asOfThatDay.cost);
    expect(dated.cost).not.toBe(releaseDay.cost);
    expect(dated.stdout).not.toContain('no recording date');
    expect(dated.stdout).toContain('priced as of the day recorded (2025-06-01)');
  });

  it('a run whose spans carry no times (0) stays undated, and replay says so', async () => {
    const file = otlpFile(0n);
    const imported = await cli('import', file);
    expect(JSON.parse(imported.stdout.split('\n')[0]!)).not.toHaveProperty('recordedAt');
    const { stdout } = await replayed(file);
    expect(stdout.replace(/\s+/g, ' ')).toContain('1 run has no recording date: priced as of');
  });

  it('a span start past the year 9999 dates no run (a header holds the years 1970–9999), and does not throw', () => {
    expect(recordedAtOfNanos([253_402_300_800n * 1_000_000_000n])).toBeUndefined();
    expect(recordedAtOfNanos([253_402_300_799n * 1_000_000_000n, 0n])).toBe('9999-12-31T23:59:59Z');
  });
});
