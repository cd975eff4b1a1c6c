/**
 * What a person sees: reports lead with the summary, fit the terminal, show money one way, say what could
 * mislead (prices unlike those billed, open loop) and name the settings that made them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { brakeSpec } from '../../src/report/settings.js';
import { widestLine } from '../../src/report/table.js';
import { cli, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
const BILLED = 'test/fixtures/prices/deepseek-recorded.json';
// DeepSeek's prices before its price cuts (the table's own row; loopcost's corrections price the runs as billed
// since 2025-09-29): prices unlike those the runs were billed at, what the gap warnings are about.
const BEFORE_CUTS = ['--prices-as-of', '2025-08-01'];
// Two of those runs, read in place: the same task on each of the two models (the population commands' warning
// is the same whatever the number of runs; 38 would only make every command slower).
const PAIR = `${MINI}/*/sqlfluff__sqlfluff-2419.traj.json.gz`;

/** Each command line run once in this file: the tests that read the same report share it. */
const reports = new Map<string, ReturnType<typeof cli>>();
function cliOnce(...argv: string[]): ReturnType<typeof cli> {
  const key = argv.join('\0');
  if (!reports.has(key)) reports.set(key, cli(...argv));
  return reports.get(key)!;
}

describe('multi-run reports lead with the summary', () => {
  it('replay: summary first; per-run rows only when few or with --per-run; rare columns behind --wide', async () => {
    const many = (await cliOnce('replay', MINI)).stdout;
    expect(many.split('\n')[0]).toMatch(/^runs\s+38, completed 28/);
    expect(many).not.toMatch(/sqlfluff__sqlfluff-1517/);
    expect(many).toMatch(/38 per-run rows not shown: add --per-run/);
    const perRun = (await cliOnce('replay', MINI, '--per-run')).stdout;
    expect(perRun).toMatch(/deepseek_chat_dev\/sqlfluff__sqlfluff-1517 /);
    expect(perRun).toMatch(/^38 runs: \.\.\/shared\/traces\/mini-swe-agent\/<run>\.traj\.json\.gz$/m);
    expect(perRun).not.toMatch(/cached tok/);
    // The rare columns shown with --wide: as well on two of the runs as on 38.
    const wide = (await cli('replay', PAIR, '--per-run', '--wide')).stdout;
    expect(wide).toMatch(/cached tok .* Δ input vs model/);
    // Few runs (at most 20: report/view.ts FEW_ROWS): the per-run table follows the summary, one row a run; one more, and it is left out.
    const SQUARES = 'scenarios/reference-sum-of-squares.yaml';
    const few = (await cli('replay', SQUARES, '--runs', '20')).stdout;
    expect(few.split('\n')[0]).toMatch(/^runs\s+20, completed 20/);
    const perRunTable = few.search(/^run\s+entry\s+stop\s+steps\b/m);
    expect(perRunTable).toBeGreaterThan(0);
    const rows = few.slice(perRunTable).match(/^reference-sum-of-squares#\d+\s+solver\s+completed\s/gm) ?? [];
    expect(rows).toHaveLength(20);
    expect(few).not.toMatch(/per-run rows not shown/);
    const oneMore = (await cli('replay', SQUARES, '--runs', '21')).stdout;
    expect(oneMore.split('\n')[0]).toMatch(/^runs\s+21, completed 21/);
    expect(oneMore).not.toMatch(/^run\s+entry\s+stop/m);
    expect(oneMore).not.toMatch(/^reference-sum-of-squares#\d+\s/m);
    expect(oneMore).toMatch(/^\(21 per-run rows not shown: add --per-run\)$/m);
  });

  it('whatif: the per-setting summary first, run × setting rows behind --per-run', async () => {
    const args = ['whatif', MINI, '--prices', BILLED, '--try', 'max-steps=50', '--try', 'max-cost=0.05'];
    const text = (await cli(...args)).stdout;
    expect(text.split('\n')[0]).toMatch(/^setting\s+completed\s+completions stopped\s+caught \(saved\)\s+spend\s+Δ spend\s+other stops$/);
    expect(text).toMatch(/^baseline \(recorded limits\)\s+28\/38 .* trace_end 10$/m);
    expect(text).toMatch(/76 run × setting rows not shown: add --per-run/);
    expect((await cli(...args, '--per-run')).stdout).toMatch(/STOPPED/);
  });

  it('compare: a per-model summary first; disagreeing runs named with --per-run; every column has a header', async () => {
    const text = (await cliOnce('compare', MINI, ...BEFORE_CUTS)).stdout;
    expect(text).toMatch(/^38 runs, 33 disagree/);
    expect(text).toMatch(/^deepseek-chat\s+23\s+23\s+\$3\.4039\s+\$1\.5777\s+\+116%$/m);
    const perRun = (await cli('compare', MINI, '--per-run', ...BEFORE_CUTS)).stdout;
    expect(perRun).toMatch(/^run\s+calls\s+cost\s+recorded\s+gap\s+verdict$/m);
    expect(perRun).toMatch(/disagrees: cost off by/);
  });
});

describe('one money format', () => {
  it('a run that cost something never shows $0.0000', async () => {
    const text = (await cli('replay', 'scenarios/recorded-pair.jsonl')).stdout;
    expect(text).not.toMatch(/\$0\.0000(?!\d)/);
    expect(text).toMatch(/\$0\.000181/);
  });

  it('no raw JSON in a table cell: tiers are columns', async () => {
    const text = (await cli('prices', 'gemini-2.5-pro')).stdout;
    expect(text).not.toMatch(/[{}]/);
    expect(text).toMatch(/^input\s+\$1\.25\s+\$2\.5$/m);
    expect(text).toMatch(/prompt > 200,000 tok/);
  });
});

describe('input text never reaches the terminal raw, nor a spreadsheet as a formula', () => {
  const dir = tempDir();
  const trace = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8');
  const header = JSON.parse(trace.split('\n')[0]!);
  const hostile = join(dir, 'run-\u001b[2J\u001b[31mred.jsonl');
  writeFileSync(hostile, [JSON.stringify({ ...header, task: '=HYPERLINK("http://x","y")' }), ...trace.split('\n').slice(1)].join('\n'));

  it('an ANSI escape in a file name is shown escaped in tables', async () => {
    const text = (await cli('replay', hostile, '--per-run')).stdout;
    expect(text).not.toContain('\u001b');
    expect(text).toContain('run-\\x1b[2J\\x1b[31mred');
  });

  it('a task name starting with = is neutralised in CSV (OWASP)', async () => {
    const csv = (await cli('replay', hostile, '--format', 'csv')).stdout;
    expect(csv).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csv).not.toMatch(/,=HYPERLINK/);
  });
});

describe('reports say what could mislead', () => {
  it('prices unlike those billed: one warning with the gap and what to do, in replay, whatif and compare', async () => {
    for (const argv of [['replay', MINI], ['whatif', MINI, '--try', 'max-steps=50'], ['compare', MINI]] as const) {
      expect((await cliOnce(...argv)).stdout, `${argv[0]} at the corrected prices`).not.toMatch(/price_gap|billed/);
      const text = (await cliOnce(...argv, ...BEFORE_CUTS)).stdout;
      expect(text, argv[0]).toMatch(/^warning: 38 runs \(deepseek-chat and deepseek-reasoner\) as recorded cost \$6\.1379 at these prices but were billed \$2\.1779\s+\(\+182%\); to price them as billed: loopcost prices derive/m);
      expect(text).toMatch(/--prices-override prices\.json/);
      // The price gap, and the importer's notes on the runs (import_notes); whatif's max-steps=50 stops recorded runs early, which it says (open_loop_brakes);
      // replay, whatif and compare: 4 runs' prompts pass the dated table's 64,000-token window less max_tokens (past_context_window), as project says it.
      expect(text.match(/^warning:/gm)).toHaveLength({ replay: 3, whatif: 4, compare: 3 }[argv[0]]);
      expect(text).toMatch(/^warning: 38 runs carry notes from their importer/m);
    }
    // The same warnings in JSON, and on stderr beside CSV (two of the runs say them as well as 38).
    const json = JSON.parse((await cli('replay', PAIR, '--format', 'json', ...BEFORE_CUTS)).stdout);
    expect(json.warnings).toEqual([expect.objectContaining({ code: 'price_gap' }), expect.objectContaining({ code: 'import_notes' })]);
    const csv = await cli('replay', PAIR, '--format', 'csv', ...BEFORE_CUTS);
    expect(csv.stderr).toMatch(/^warning: 2 runs \(deepseek-chat and deepseek-reasoner\) as recorded cost/);
  });

  it('the same warning in the population commands: sweep (one thread or two, --tree), calibrate, project, check, and fit (its report, its profile, stderr)', async () => {
    // Two runs: at the prices before the cuts $0.041553 (deepseek-chat) + $0.128665 (deepseek-reasoner) = $0.1702,
    // billed $0.019431 + $0.029316 = $0.0487 (their info.model_stats.instance_cost), +249%.
    const gap = /^warning: 2 runs \(deepseek-chat and deepseek-reasoner\) as recorded cost \$0\.1702 at these prices but were billed \$0\.0487\s+\(\+249%\)/m;
    const replayed = (await cli('replay', PAIR, ...BEFORE_CUTS)).stdout;
    expect(replayed).toMatch(gap);
    const said = gap.exec(replayed)![0];
    const grid = ['--grid', 'max-steps=40,80'];
    const dir = tempDir();
    const check = join(dir, 'check.yaml');
    writeFileSync(check, `scenario: loopcost.scenario/1\ntraces: [${JSON.stringify(resolve(PAIR))}]\nbrakes: { max-repeat: 10 }\nexpect:\n  population: { falseStopRate: { max: 0 }, completionRate: { min: 0.7 } }\n`);
    for (const argv of [['sweep', PAIR, ...grid], ['sweep', PAIR, ...grid, '--workers', '2'], ['sweep', PAIR, ...grid, '--tree'], ['calibrate', PAIR, '--grid', 'max-repeat=2,3'], ['project', PAIR], ['check', check]]) {
      const r = await cli(...argv, ...BEFORE_CUTS);
      expect(r.stdout, argv.join(' ')).toMatch(gap);
      expect(gap.exec(r.stdout)![0], argv.join(' ')).toBe(said);
      expect((await cli(...argv, '--prices', BILLED)).stdout, `${argv.join(' ')} --prices`).not.toMatch(/price_gap|billed/);
    }
    const sweepJson = JSON.parse((await cli('sweep', PAIR, ...grid, '--format', 'json', ...BEFORE_CUTS)).stdout);
    // Besides the importer's notes on the runs (import_notes), as replay says them.
    const notes = expect.objectContaining({ code: 'import_notes' });
    expect(sweepJson.warnings).toEqual([expect.objectContaining({ code: 'price_gap', message: expect.stringContaining(`loopcost prices derive ${PAIR} --out prices.json`) }), notes]);
    expect(JSON.parse((await cli('sweep', PAIR, ...grid, '--model', 'gpt-4o-mini', '--format', 'json', ...BEFORE_CUTS)).stdout).warnings).toEqual([notes]);
    const fit = await cli('fit', PAIR, '--out', join(dir, 'profile.yaml'), '--report', ...BEFORE_CUTS);
    expect(fit.stdout).toMatch(gap);
    expect(readFileSync(join(dir, 'profile.yaml'), 'utf8')).toMatch(/^# Warning: 2 runs \(deepseek-chat and deepseek-reasoner\) as recorded cost \$0\.1702/m);
    expect((await cli('fit', PAIR, '--out', join(dir, 'quiet.yaml'), ...BEFORE_CUTS)).stderr).toMatch(gap);
    // The profile names the prices it was fitted with, and how to price its replays the same way.
    expect(readFileSync(join(dir, 'quiet.yaml'), 'utf8')).toMatch(/^# Fitted with prices @pydantic\/genai-prices \S+ \(sha256 [0-9a-f]+\) \+ \d+ loopcost corrections .*replay it with --prices-as-of 2025-08-01 /m);
    await cli('fit', PAIR, '--out', join(dir, 'billed.yaml'), '--prices', BILLED);
    const billed = readFileSync(join(dir, 'billed.yaml'), 'utf8');
    expect(billed).toMatch(/^# Fitted with prices test\/fixtures\/prices\/deepseek-recorded\.json file .*replay it with --prices test\/fixtures\/prices\/deepseek-recorded\.json /m);
    // No price gap; the one warning is of the two models pooled (fitPooling.ts).
    expect(billed.match(/^# Warning: .*/gm)).toEqual([expect.stringMatching(/^# Warning: runs of 2 models pooled: deepseek\/deepseek-chat \(1 run\), deepseek\/deepseek-reasoner \(1 run\);/)]);
  });

  it("the days dated prices were read at: a sentence in JSON's prices.note, after the table's name in text", async () => {
    const json = JSON.parse((await cli('replay', MINI, '--format', 'json')).stdout);
    expect(json.prices.note).toBe("33 runs priced as of the day recorded (2026-04-09 to 2026-04-13); 5 runs have no recording date: priced as of 2026-09-23, the table's release day");
    expect((await cliOnce('replay', MINI)).stdout.replace(/\s+/g, ' ')).toMatch(/release day 2026-09-23; 33 runs priced as of the day recorded/);
  });

  it('no warning when the prices are those the runs were billed at, or when re-priced as another model', async () => {
    // The one warning left is of the importer's notes on the runs (import_notes).
    const other = /^warning: (?!38 runs carry notes from their importer)/m;
    expect((await cli('replay', MINI, '--prices', BILLED)).stdout).not.toMatch(other);
    expect((await cli('replay', MINI, '--model', 'gpt-4o-mini')).stdout).not.toMatch(other);
  });

  it('a context strategy on recorded runs: completion is as recorded (open loop), closed loop named', async () => {
    const text = (await cli('replay', MINI, '--prices', BILLED, '--context', 'window:1')).stdout;
    expect(text).toMatch(/^warning: context window:1 on 38 recorded runs changes cost only: completions and stop reasons are as recorded \(open\s+loop\);/m);
    expect(text.replace(/\s+/g, ' ')).toMatch(/agents that react to what the prompt holds .*forgetful: docs\/scenarios\.md.*a profile loopcost fit writes does not/);
    const whatif = (await cli('whatif', MINI, '--prices', BILLED, '--try', 'max-steps=50', '--tool-result-cap', '500')).stdout;
    expect(whatif).toMatch(/warning: context full · tool-result-cap 500 on 38 recorded runs/);
    // A run written down by a synthetic agent (origin synthetic) replays as written too: its agent would have reacted to the window.
    expect((await cli('replay', 'scenarios/long-exploration.jsonl', '--context', 'window:2')).stdout).toMatch(/^warning: context window:2 on 1 recorded run changes cost only/m);
    // Scenario files' runs are closed loop: nothing to warn about.
    expect((await cli('replay', 'scenarios/keeps-asking.yaml', '--context', 'window:2')).stdout).not.toMatch(/warning/);
  });
});

describe('every report names the settings that made it', () => {
  it('table footer, CSV columns and JSON', async () => {
    const args = ['replay', 'scenarios', '--max-steps', '20', '--max-cost', '0.05', '--budget-mode', 'predict', '--context', 'window:3', '--cache', 'on'];
    // The trace files' runs took the flags' brakes; the scenario files' runs their own with the flags on top.
    expect((await cli(...args)).stdout).toMatch(/^settings: brakes max-steps=20,max-cost=0\.05,budget-mode=predict \(synthetic: max-steps=20,max-cost=0\.05,\s+budget-mode=predict,timeout=120,max-repeat=3,repeat-mode=total\) ·\s+context window:3 · cache on ·\s+latency as recorded \(synthetic: each scenario file's own\)$/m);
    const csv = (await cli(...args, '--format', 'csv')).stdout.split('\n');
    expect(csv[0]).toMatch(/,brakes,context,toolResultCap,cacheMode,latency,repricedAs,priceSource,priceVersion,priceHash,priceAsOf,priceOverrides$/);
    // csv[1] is a trace file's run: its own latency (as recorded), not the label of every run.
    expect(csv[1]).toMatch(/^scenarios\/backtracking-explorer\.jsonl,.*,"max-steps=20,max-cost=0\.05,budget-mode=predict",window:3,,on,as recorded,,@pydantic\/genai-prices,/);
    const json = JSON.parse((await cli(...args, '--format', 'json')).stdout);
    expect(json.settings.spec).toEqual({ brakes: 'max-steps=20,max-cost=0.05,budget-mode=predict (synthetic: max-steps=20,max-cost=0.05,budget-mode=predict,timeout=120,max-repeat=3,repeat-mode=total)', context: 'window:3', cache: 'on', latency: "as recorded (synthetic: each scenario file's own)" });
    const whatif = (await cli('whatif', 'scenarios', '--try', 'max-steps=3', '--latency-model', 'call=100')).stdout;
    // scenarios/ holds files with cache on and off: the settings line says so, not "synthetic: off".
    expect(whatif).toMatch(/^settings: brakes preset=recorded \(synthetic: [^)]*\)\s+·\s+context full \(synthetic: each scenario file's own, listed below\)\s+·\s+cache as recorded \(synthetic: each scenario file's own\)\s+·\s+latency call=100,input-token=0,output-token=0,tool=0$/m);
  });

  it('the brakes as written in a report read back as the same brakes (--try syntax)', () => {
    const option = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const spec = fc
      .record({
        'max-steps': option(fc.integer({ min: 1, max: 500 })),
        // a limit of 0 would stop every run, and is refused: the least is a millionth of a dollar, a millisecond
        'max-cost': option(fc.integer({ min: 1, max: 10_000_000 }).map((n) => String(n / 1e6))),
        'budget-mode': fc.constantFrom('check', 'predict'),
        timeout: option(fc.integer({ min: 1, max: 100_000 }).map((n) => String(n / 1000))),
        'max-repeat': option(fc.integer({ min: 1, max: 9 })),
        'repeat-mode': fc.constantFrom('total', 'consecutive', 'cycle'),
        'max-same-error': option(fc.integer({ min: 1, max: 9 })),
        'same-error-mode': fc.constantFrom('total', 'consecutive'),
        'max-tokens': option(fc.integer({ min: 1, max: 1e9 })),
        'max-backtracks': option(fc.integer({ min: 0, max: 9 })),
        'context-window': option(fc.oneof(fc.constant('model'), fc.integer({ min: 1, max: 1e6 }))),
      })
      // a mode is given with its brake (a mode alone does nothing, and is refused)
      .map((parts) => ({
        ...parts,
        'budget-mode': parts['max-cost'] === undefined ? undefined : parts['budget-mode'],
        'repeat-mode': parts['max-repeat'] === undefined ? undefined : parts['repeat-mode'],
        'same-error-mode': parts['max-same-error'] === undefined ? undefined : parts['same-error-mode'],
      }));
    fc.assert(
      fc.property(spec, (parts) => {
        const text = Object.entries(parts).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`).join(',');
        const brakes = brakesFromSpec(text);
        const written = brakeSpec(brakes);
        expect(written === 'none').toBe(text === '');
        if (written !== 'none') expect(brakesFromSpec(written)).toEqual(brakes);
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});

describe('every table fits in 120 columns (or the terminal)', () => {
  const commands: string[][] = [
    ['replay', MINI, '--per-run'],
    ['replay', '../shared/traces', '--per-run'],
    ['replay', 'scenarios', '--format', 'chart'],
    ['replay', MINI + '/deepseek_reasoner_dev/sqlfluff__sqlfluff-1733.traj.json.gz', '--format', 'chart'],
    ['whatif', MINI, '--per-run', '--try', 'max-repeat=3,repeat-mode=consecutive', '--try', 'max-steps=50,max-cost=0.5,max-same-error=3,same-error-mode=total'],
    ['compare', '../shared/traces', '--per-run'],
    ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '300'],
    ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '300', '--format', 'chart'],
    ['prices', 'claude-sonnet-4-5'],
    ['prices', 'derive', '../shared/traces'],
    ['replay', 'scenarios/recorded-pair.jsonl', '--format', 'chart'],
  ];
  for (const argv of commands) {
    it(argv.join(' '), async () => {
      const r = await cliOnce(...argv);
      expect(r.code).toBe(0);
      expect(widestLine(r.stdout)).toBeLessThanOrEqual(120);
    });
  }

  it('a narrow terminal: 80 columns', async () => {
    let stdout = '';
    const { main } = await import('../../src/cli/main.js');
    await main(['replay', MINI, '--per-run'], { stdout: (s) => (stdout += s), stderr: () => undefined, cwd: process.cwd(), columns: 80 });
    expect(widestLine(stdout)).toBeLessThanOrEqual(80);
  });
});


describe('--cache on with a model that has no cached price', () => {
  it('says that no saving is shown', async () => {
    const text = (await cli('replay', 'scenarios/long-exploration.jsonl', '--model', 'gpt-4', '--cache', 'on')).stdout;
    expect(text).toMatch(/^warning: --cache on: gpt-4 has no cached-input price in this table, so cached tokens are billed as input/m);
    expect((await cli('replay', 'scenarios/long-exploration.jsonl', '--model', 'gpt-4o', '--cache', 'on')).stdout).not.toMatch(/no cached-input price/);
  });
});

describe('compare names its settings too', () => {
  it('as recorded: no brakes, full context, cache as recorded', async () => {
    expect((await cli('compare', 'scenarios')).stdout).toMatch(/^settings: brakes none · context full · cache as recorded \(synthetic: off\)/m);
    expect((await cli('compare', 'scenarios', '--format', 'csv')).stdout.split('\n')[0]).toMatch(/,tolerance,brakes,context,toolResultCap,cacheMode,latency,repricedAs,priceSource,/);
  });

  it('model names from a price file are listed escaped', async () => {
    const dir = tempDir();
    const file = join(dir, 'p.json');
    writeFileSync(file, JSON.stringify({ 'evil\u001b[2Jmodel': { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6, mode: 'chat' } }));
    const r = await cli('prices', '--prices', file);
    expect(r.stdout).toContain('evil\\x1b[2Jmodel');
    expect(r.stdout).not.toContain('\u001b');
  });
});
