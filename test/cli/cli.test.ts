import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

describe('loopcost curve', () => {
  it('prints the growth rows with the documented JSON field names on the bundled gpt-4o-mini prices', async () => {
    const r = await cli('curve', '--model', 'gpt-4o-mini', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '450', '--steps', '12', '--format', 'json');
    expect(r.code).toBe(0);
    const { rows } = JSON.parse(r.stdout);
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['step', 'inputTokens', 'outputTokens', 'cumulativeInputTokens', 'cumulativeOutputTokens', 'cumulativeCostUsd']));
    // Closed form on $0.15 / $0.60 per million: Σ input = 12·500 + 600·66, output 150·12.
    const last = rows[11];
    expect(last.cumulativeInputTokens).toBe(12 * 500 + 600 * 66);
    expect(last.cumulativeCostUsd).toBe((0.15e6 * (12 * 500 + 600 * 66) + 0.6e6 * 1800) / 1e12);
  });

  it('takes any context strategy', async () => {
    const r = await cli('curve', '--model', 'gpt-4o-mini', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '450', '--steps', '10', '--context', 'window:2', '--format', 'csv');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^step,inputTokens/);
    expect(lines[10]!.split(',')[1]).toBe(String(500 + 2 * 600));
  });
});

describe('loopcost replay', () => {
  it('replays the scenarios with the reference preset; every run has a source and a stop reason', async () => {
    const r = await cli('replay', 'scenarios', '--preset', 'reference', '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const bySource = Object.fromEntries(report.runs.map((run: { source: string }) => [run.source, run]));
    expect(bySource['scenarios/reference-sum-of-squares.jsonl'].stopReason).toBe('completed');
    expect(bySource['scenarios/reverify-forever.jsonl'].stopReason).toBe('repeat');
    expect(bySource['scenarios/long-exploration.jsonl'].stopReason).toBe('max_steps');
    expect(bySource['scenarios/recorded-pair.jsonl#2'].stopReason).toBe('trace_end');
    for (const run of report.runs) {
      expect(run).toHaveProperty('costUsd');
      expect(run).toHaveProperty('overshootUsd');
      expect(run).toHaveProperty('cachedInputTokens');
    }
    expect(report.prices.source.name).toBe('@pydantic/genai-prices');
    expect(report.prices.source.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(report.summary.runs).toBe(report.runs.length);
  });

  it('the reference task costs what the growth model says on gpt-4o-mini', async () => {
    const r = await cli('replay', 'scenarios/reference-sum-of-squares.jsonl', '--format', 'json');
    const run = JSON.parse(r.stdout).runs[0];
    // Prompts: 355, 355+162, 355+324 tokens; outputs 150, 150, 60.
    expect(run.inputTokens).toBe(355 * 3 + 162 + 324);
    expect(run.costUsd).toBe((0.15e6 * (355 * 3 + 486) + 0.6e6 * 360) / 1e12);
  });

  it('writes csv and chart formats, and the same input gives byte-identical output', async () => {
    const a = await cli('replay', 'scenarios', '--max-steps', '20', '--format', 'csv');
    const b = await cli('replay', 'scenarios', '--max-steps', '20', '--format', 'csv');
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout.split('\n')[0]).toMatch(/^source,task,model/);
    const chart = await cli('replay', 'scenarios/long-exploration.jsonl', '--format', 'chart');
    expect(chart.stdout).toMatch(/input tokens per call/);
    expect(chart.stdout).toMatch(/[┼┤]/);
  });

  it('--model re-prices and --report-dir writes all four reports', async () => {
    const dir = tempDir();
    const r = await cli('replay', 'scenarios/reference-sum-of-squares.jsonl', '--model', 'gpt-4o', '--report-dir', dir);
    expect(r.code).toBe(0);
    for (const name of ['replay.json', 'replay.csv', 'replay.txt', 'replay-chart.txt', 'replay-steps.csv']) expect(existsSync(join(dir, name))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')).runs[0].model).toBe('gpt-4o');
  });

  it('--per-step reports every call, cached tokens included, in JSON and CSV; per-run totals add up', async () => {
    const json = JSON.parse((await cli('replay', 'scenarios/long-exploration.jsonl', '--cache', 'on', '--per-step', '--format', 'json')).stdout);
    const run = json.runs[0];
    expect(run.perStep).toHaveLength(run.modelCalls);
    // gpt-4o-mini: OpenAI caches prompts from 1,024 tokens and serves hits in 128-token increments, so the
    // second call reuses the first prompt rounded down to a multiple of 128.
    expect(run.perStep[0].inputTokens).toBeGreaterThanOrEqual(1024);
    expect(run.perStep[1].cachedInputTokens).toBe(Math.floor(run.perStep[0].inputTokens / 128) * 128);
    expect(run.perStep.reduce((sum: number, step: { cachedInputTokens: number }) => sum + step.cachedInputTokens, 0)).toBe(run.cachedInputTokens);
    expect(run.perStep.at(-1).cumulativeCostUsd).toBe(run.costUsd);
    const csv = (await cli('replay', 'scenarios/long-exploration.jsonl', '--cache', 'on', '--per-step', '--format', 'csv')).stdout.trim().split('\n');
    expect(csv[0]).toMatch(/^source,call,step,inputTokens,cachedInputTokens/);
    expect(csv).toHaveLength(run.modelCalls + 1);
  });

  it('--latency-model gives synthetic traces without latencies a virtual clock', async () => {
    const dir = tempDir();
    const path = join(dir, 'no-latency.jsonl');
    writeFileSync(path, readFileSync('scenarios/long-exploration.jsonl', 'utf8').replace(/"latencyMs":\d+,?/g, '').replace(/,}/g, '}'));
    const without = JSON.parse((await cli('replay', path, '--timeout', '60', '--format', 'json')).stdout).runs[0];
    expect(without.stopReason).toBe('completed');
    const modelled = JSON.parse((await cli('replay', path, '--timeout', '60', '--latency-model', 'call=2000,output-token=10,tool=500', '--format', 'json')).stdout).runs[0];
    // 2000 + 250 × 10 ms per call, 500 ms per tool: 5 s a step, so 12 steps fill a minute exactly; a tie
    // is not past the timeout (as in the reference loop), so a 13th step is made.
    expect(modelled.stopReason).toBe('timeout');
    expect(modelled.steps).toBe(13);

    const whatif = async (...extra: string[]) => JSON.parse((await cli('whatif', path, '--try', 'timeout=60', '--format', 'json', ...extra)).stdout).runs[0];
    expect(await whatif()).toMatchObject({ stopReason: 'completed', falseStop: false });
    expect(await whatif('--latency-model', 'call=2000,output-token=10,tool=500')).toMatchObject({ stopReason: 'timeout', steps: 13, falseStop: true });
  });

  it('reads .gz inputs directly', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ref.jsonl.gz'), gzipSync(readFileSync('scenarios/reference-sum-of-squares.jsonl')));
    const r = await cli('replay', join(dir, 'ref.jsonl.gz'), '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).runs[0].stopReason).toBe('completed');
  });
});

describe('bad input: exit 2, one message naming the place, no output file', () => {
  const cases: [string, () => string[], RegExp][] = [];
  const dir = tempDir();
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const good = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8');
  cases.push(['corrupted line', () => [file('corrupt.jsonl', good.replace('"outputTokens":150', '"outputTokens":15,,'))], /corrupt\.jsonl:line 2.*not valid JSON/]);
  cases.push(['truncated file', () => [file('trunc.jsonl', good.slice(0, good.length - 40))], /trunc\.jsonl:line 4/]);
  cases.push(['empty file', () => [file('empty.jsonl', '')], /empty\.jsonl.*empty/]);
  cases.push(['binary file', () => [file('bin.jsonl', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x10, 0xff]))], /bin\.jsonl.*binary/]);
  cases.push(['damaged gzip', () => [file('bad.jsonl.gz', gzipSync(Buffer.from(good)).subarray(0, 30))], /bad\.jsonl\.gz.*gzip/]);
  cases.push(['negative tokens', () => [file('neg.jsonl', good.replace('"resultTokens":12', '"resultTokens":-12'))], /neg\.jsonl:line 2 field 'toolCalls\[0\]\.resultTokens'.*negative/]);
  cases.push(['missing field', () => [file('missing.jsonl', good.replace('"outputTokens":60,', ''))], /missing\.jsonl:line 4 field 'outputTokens'.*missing/]);
  cases.push(['unknown model', () => [file('model.jsonl', good.replace('"model":"gpt-4o-mini"', '"model":"gpt-4o-mimi"'))], /model\.jsonl:line 1 field 'header\.model'.*unknown model 'gpt-4o-mimi'.*gpt-4o-mini/]);
  cases.push(['no such file', () => [join(dir, 'nope.jsonl')], /nope\.jsonl.*no such file/]);

  for (const [name, inputs, message] of cases) {
    it(name, async () => {
      const out = join(dir, `${name.replace(/\W/g, '_')}.json`);
      const r = await cli('replay', ...inputs(), '--format', 'json', '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(out)).toBe(false);
    });
  }

  const usage: [string, string[], RegExp][] = [
    ['unknown flag', ['replay', 'scenarios', '--max-stepz', '3'], /unknown option '--max-stepz'.*--max-steps/s],
    ['bad number', ['replay', 'scenarios', '--max-steps', 'ten'], /--max-steps.*'ten' is not a whole number/],
    ['negative budget', ['replay', 'scenarios', '--max-cost', '-1'], /--max-cost/],
    ['NaN budget', ['replay', 'scenarios', '--max-cost', 'NaN'], /--max-cost.*'NaN'/],
    ['bad window', ['replay', 'scenarios', '--context', 'window:0'], /--context/],
    ['bad repeat mode', ['replay', 'scenarios', '--max-repeat', '2', '--repeat-mode', 'often'], /--repeat-mode.*one of total, consecutive, cycle/],
    ['unknown --model', ['replay', 'scenarios', '--model', 'gtp-4o'], /unknown model 'gtp-4o'.*gpt-4o/],
    ['bad price file', ['replay', 'scenarios', '--prices', 'test/fixtures/prices/litellm-bad-json.json'], /litellm-bad-json\.json/],
    ['bad latency model', ['replay', 'scenarios', '--latency-model', 'call=fast'], /--latency-model.*'call=fast' is not a number of milliseconds/],
    ['unknown latency part', ['replay', 'scenarios', '--latency-model', 'network=5'], /--latency-model.*'network=5' is not a latency setting/],
    ['missing curve flag', ['curve', '--model', 'gpt-4o-mini'], /required option/],
    ['impossible --prices-as-of day', ['replay', 'scenarios', '--prices-as-of', '2025-02-30'], /--prices-as-of.*'2025-02-30' is no day of the calendar/],
    ['--prices-as-of with a LiteLLM file', ['whatif', 'scenarios', '--try', 'max-steps=3', '--prices', 'test/fixtures/prices/litellm-2024-excerpt.json', '--prices-as-of', '2025-05-01'], /--prices-as-of.*no dated prices/],
  ];
  for (const [name, argv, message] of usage) {
    it(name, async () => {
      const out = join(dir, `${name.replace(/\W/g, '_')}.json`);
      const r = await cli(...argv, '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('the installed bin exits 2 with no stack trace', () => {
    const r = spawnSync(process.execPath, ['bin/loopcost.js', 'replay', 'scenarios', '--max-steps', '-5'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--max-steps/);
    expect(r.stderr).not.toMatch(/at .*\.js/);
  });

  it('the bin exits 0 on a run where brakes fire', () => {
    const out = execFileSync(process.execPath, ['bin/loopcost.js', 'replay', 'scenarios', '--preset', 'reference'], { encoding: 'utf8' });
    expect(out).toMatch(/repeat/);
  });
});

describe('loopcost prices', () => {
  it('shows a model and where its price came from', async () => {
    const r = await cli('prices', 'gpt-4o', '--json');
    expect(r.code).toBe(0);
    const described = JSON.parse(r.stdout);
    expect(described.inputPerMTokUsd).toBe(2.5);
    expect(described.cachedInputPerMTokUsd).toBe(1.25);
    expect(described.source.name).toBe('@pydantic/genai-prices');
  });

  it('--prices-as-of reads dated prices at that day, and every report says so', async () => {
    // genai-prices: o3 cost $10/M input until its 2025-06-10 price cut to $2/M.
    const latest = JSON.parse((await cli('prices', 'o3', '--json')).stdout);
    const before = JSON.parse((await cli('prices', 'o3', '--json', '--prices-as-of', '2025-06-09')).stdout);
    const onTheDay = JSON.parse((await cli('prices', 'o3', '--json', '--prices-as-of', '2025-06-10')).stdout);
    expect([latest.inputPerMTokUsd, before.inputPerMTokUsd, onTheDay.inputPerMTokUsd]).toEqual([2, 10, 2]);
    expect(before.source.asOf).toBe('2025-06-09');
    // without a day and without a run recorded on a day: the table's release day, never the wall clock
    expect(latest.source).toMatchObject({ asOf: '2026-09-23', dating: 'release' });

    const replay = (...extra: string[]) => cli('replay', 'scenarios/reference-sum-of-squares.jsonl', '--model', 'o3', ...extra);
    const csvLatest = (await replay('--format', 'csv')).stdout.split('\n');
    const csvBefore = (await replay('--format', 'csv', '--prices-as-of', '2025-06-09')).stdout.split('\n');
    expect(csvBefore[0]).toMatch(/,pricedAsOf,.*,priceSource,priceVersion,priceHash,priceAsOf,priceOverrides$/);
    expect(csvBefore[1]).toMatch(/,2025-06-09,$/);
    expect(csvLatest[1]).toMatch(/,recorded-day,$/);
    const costOf = async (...extra: string[]) => JSON.parse((await replay('--format', 'json', ...extra)).stdout).runs[0].costUsd;
    expect(await costOf('--prices-as-of', '2025-06-09')).toBeGreaterThan(await costOf());
    // (A prices line wrapped, its continuations joined: the corrections overlay lengthens it.)
    expect((await replay('--prices-as-of', '2025-06-09')).stdout.replace(/\n {8}/g, ' ')).toMatch(/^prices: @pydantic\/genai-prices .*, dated prices as of 2025-06-09$/m);
  });

  it('loads a LiteLLM file', async () => {
    const r = await cli('prices', 'gpt-4o', '--prices', 'test/fixtures/prices/litellm-2024-excerpt.json', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).source.version).toBe('file');
  });
});
