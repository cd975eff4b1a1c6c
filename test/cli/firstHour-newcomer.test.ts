/**
 * A newcomer's first commands: a fine-tuning export given as a trace, a scenario without its `scenario:`
 * line (replay and check), bare `loopcost`, the help's defaults for scenario files, a summary without a
 * budget, a curve's token counts. Each answer says what to do, once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const dir = tempDir();
const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));

describe('inputs that are not what loopcost reads', () => {
  it('OpenAI fine-tuning JSONL (two `messages` lines): an unknown format that looks like fine-tuning data, never "not valid JSON"', async () => {
    const ft = file('ft.jsonl', '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}\n{"messages":[{"role":"user","content":"a"}]}\n');
    const r = await cli('replay', ft);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^loopcost: .*ft\.jsonl: is not a trace format loopcost reads: it looks like chat fine-tuning or eval data, a `messages` list a record: .* \(loopcost replays recorded model calls with their usage: provider exchanges JSONL/);
    expect(r.stderr).not.toMatch(/not valid JSON|line 2/);
  });

  it('a scenario without its scenario: line: replay and check both say the line is missing, at the file', async () => {
    const text = readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8').replace('scenario: loopcost.scenario/1\n', '');
    const noHead = file('nohead.yaml', text);
    for (const command of ['replay', 'check']) {
      const r = await cli(command, noHead);
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toMatch(/^loopcost: .*nohead\.yaml:line 5 field 'scenario': has no `scenario: loopcost\.scenario\/1` line \(a scenario file declares itself: add `scenario: loopcost\.scenario\/1` as its first line; see docs\/scenarios\.md\)\n$/);
      expect(r.stderr, command).not.toMatch(/not a trace format|is not a scenario file/);
    }
  });
});

describe('bare loopcost', () => {
  it('prints the help once (stderr) and exits 2, a usage error as bare git and npm are; no second message', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: loopcost \[options\] \[command\]\n/);
    expect(r.stderr.match(/Usage: loopcost/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/outputHelp|loopcost: |for usage\)/);
    // Help asked for is no error.
    expect((await cli('--help')).code).toBe(0);
    expect((await cli('help')).code).toBe(0);
  });
});

describe("help states a scenario file's own context and cache as the default for its runs", () => {
  for (const command of ['replay', 'check']) {
    it(command, async () => {
      const help = (await cli(command, '--help')).stdout.replace(/\n {2,}/g, ' ');
      expect(help).toMatch(/--context <strategy> +full \| window:K \| mask:M \| summary:… \| hybrid:… \(default: full; for a scenario file's runs, the file's own context\.context, else full\)/);
      expect(help).toMatch(/--cache <mode> +prompt caching: on \| off \(default: for a scenario file's runs, the file's own context\.cache; else as recorded for recorded traces, off for synthetic ones\)/);
    });
  }
});

describe("replay's summary", () => {
  it('shows overshoot only when a budget brake is on', async () => {
    const trace = 'scenarios/reference-sum-of-squares.jsonl';
    expect((await cli('replay', trace, '--preset', 'none')).stdout).not.toMatch(/overshoot/);
    expect((await cli('replay', trace, '--max-steps', '2')).stdout).not.toMatch(/overshoot/);
    expect((await cli('replay', trace, '--max-cost', '0.5')).stdout).toMatch(/^overshoot past the budget +total \$0, largest run \$0$/m);
    // A scenario file's own budget (the reference preset: $0.50) turns it on too.
    expect((await cli('replay', 'scenarios/reference-sum-of-squares.yaml', '--runs', '2')).stdout).toMatch(/^overshoot past the budget +total /m);
  });
});

describe('curve', () => {
  it('one number format for token counts: the table, the side-by-side table and the chart as the notes (125,900)', async () => {
    const args = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '100'];
    const table = (await cli(...args)).stdout;
    expect(table).toMatch(/^ +58 +125,900 +0 +150 +3,665,600 +8,700 /m);
    expect(table).toMatch(/the prompt \(125,900 tokens\)/);
    const compared = (await cli(...args, '--compare-context', 'window:5')).stdout;
    expect(compared).toMatch(/^ +100 +10,955,000 +1,132,000$/m);
    const chart = (await cli(...args, '--format', 'chart')).stdout;
    expect(chart).toMatch(/^ +218,300 [┤┼]/m);
    // No ungrouped count of four digits or more in any of them (cost cells are $-prefixed).
    for (const text of [table, compared, chart]) expect(text).not.toMatch(/(^|[ (])\d{4,}( |$)/m);
  });
});
