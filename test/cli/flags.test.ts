/**
 * Flags say what they do: --out's extension picks the format, a flag that would do nothing is refused or
 * warned about, help states every default and marks required options, errors name the command's help
 * and the field as the user knows it, and unknown trace fields get a "did you mean".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const dir = tempDir();
/** The bundled recorded traces (scenarios/ holds scenario files too). */
const TRACES = 'scenarios/*.jsonl';

describe('--out picks the format from its extension when --format is not given', () => {
  it('.json, .csv, .txt', async () => {
    for (const [name, check] of [
      ['r.json', (text: string) => expect(JSON.parse(text).summary.runs).toBe(7)],
      ['r.csv', (text: string) => expect(text).toMatch(/^source,task,model,/)],
      ['r.txt', (text: string) => expect(text).toMatch(/^runs\s+7, completed/)],
    ] as const) {
      const out = join(dir, name);
      expect((await cli('replay', TRACES, '--out', out)).code).toBe(0);
      check(readFileSync(out, 'utf8'));
    }
    const out = join(dir, 'w.json');
    await cli('whatif', TRACES, '--try', 'max-steps=3', '--out', out);
    expect(JSON.parse(readFileSync(out, 'utf8')).totals).toHaveLength(1);
  });

  it('--format wins, and a contradicting extension is said', async () => {
    const out = join(dir, 'really.json');
    const r = await cli('replay', TRACES, '--out', out, '--format', 'csv');
    expect(readFileSync(out, 'utf8')).toMatch(/^source,/);
    expect(r.stderr).toMatch(/warning: --out .*really\.json has a \.json name but --format csv was asked for: writing csv/);
  });
});

describe('a flag that would do nothing is refused (exit 2, nothing written) or warned about', () => {
  const refused: [string, string[], RegExp][] = [
    ['--repeat-mode without --max-repeat', ['replay', TRACES, '--repeat-mode', 'consecutive'], /--repeat-mode': has no effect without --max-repeat/],
    ['--budget-mode without --max-cost', ['replay', TRACES, '--budget-mode', 'predict'], /--budget-mode': has no effect without --max-cost/],
    ['--same-error-mode without --max-same-error', ['curve', '--model', 'gpt-4o', '--system-tokens', '1', '--output-tokens', '1', '--tool-tokens', '1', '--steps', '2', '--same-error-mode', 'total'], /--same-error-mode': has no effect without --max-same-error/],
    ['a --try mode without its brake', ['whatif', TRACES, '--try', 'max-steps=5', '--try', 'repeat-mode=total'], /--try': 'repeat-mode=total': repeat-mode has no effect without max-repeat/],
    ['--repeat-mode without --max-repeat in any configuration (sweep)', ['sweep', TRACES, '--grid', 'max-steps=10', '--repeat-mode', 'cycle'], /--repeat-mode': has no effect without --max-repeat: no configuration has it/],
    ['a grid of modes without their brake (sweep)', ['sweep', TRACES, '--grid', 'max-steps=10', '--grid', 'repeat-mode=cycle,total'], /--grid repeat-mode': has no effect without --max-repeat/],
    // (A scenario file whose brakes set a budget takes it: flight-search's reference preset has one.)
    ['--budget-mode without --max-cost (calibrate)', ['calibrate', TRACES, '--grid', 'max-repeat=2,3', '--budget-mode', 'predict'], /--budget-mode': has no effect without --max-cost/],
    ['--same-error-mode without --max-same-error (project)', ['project', 'scenarios/flight-search.yaml', '--same-error-mode', 'total'], /--same-error-mode': has no effect without --max-same-error.*\(add --max-same-error N, or drop --same-error-mode\)/],
    ['--per-step with table output', ['replay', TRACES, '--per-step', '--format', 'table'], /--per-step': has no effect on table output/],
    ['--out with --report-dir', ['replay', TRACES, '--report-dir', join(dir, 'rd')], /--out': cannot be used with --report-dir/],
    ['a brake flag the grid varies', ['sweep', TRACES, '--max-steps', '3', '--grid', 'max-steps=4,5'], /--max-steps': does nothing: --grid max-steps gives every configuration its own max-steps \(drop --max-steps, or add its value to --grid max-steps\)/],
    ['--context with --grid context', ['sweep', TRACES, '--context', 'window:3', '--grid', 'context=full,window:4'], /--context': does nothing: --grid context gives every configuration its own context/],
    ['--model with --grid model (calibrate)', ['calibrate', 'scenarios/flight-search.yaml', '--model', 'gpt-4o', '--grid', 'model=gpt-4o,gpt-4o-mini'], /--model': does nothing: --grid model/],
  ];
  for (const [name, argv, message] of refused) {
    it(name, async () => {
      const out = join(dir, `${name.replace(/\W+/g, '_')}.json`);
      const r = await cli(...argv, '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('a sweep takes --repeat-action with the grid\'s repeat brake (it was once left out), and a mode whose brake only some configurations have', async () => {
    const r = await cli('sweep', 'scenarios/keeps-asking.yaml', '--runs', '5', '--grid', 'preset=none,reference', '--repeat-action', 'skip', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).configurations.map((c: { brakes: string }) => c.brakes)).toEqual(['none', expect.stringMatching(/max-repeat=3,repeat-mode=total,repeat-action=skip$/)]);
  });

  it("a mode whose brake only a scenario file sets is fine; one no input sets is refused", async () => {
    expect((await cli('replay', 'scenarios/reference-sum-of-squares.yaml', '--repeat-mode', 'consecutive', '--runs', '2')).code).toBe(0);
    const r = await cli('replay', 'scenarios/reference-sum-of-squares.yaml', TRACES, '--same-error-mode', 'total', '--runs', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--same-error-mode': has no effect without --max-same-error/);
  });

  it('--format with --report-dir is refused; a mode with a preset that sets its brake is fine', async () => {
    expect((await cli('replay', TRACES, '--report-dir', join(dir, 'rd2'), '--format', 'csv')).stderr).toMatch(/--format': has no effect with --report-dir/);
    expect((await cli('replay', TRACES, '--preset', 'reference', '--repeat-mode', 'consecutive')).code).toBe(0);
    expect((await cli('replay', TRACES, '--per-step', '--format', 'json')).code).toBe(0);
  });

  it('--wide and --per-run with CSV or JSON: said on stderr', async () => {
    const r = await cli('replay', TRACES, '--format', 'csv', '--wide', '--per-run');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: --wide shapes table output only; it does nothing with --format csv/);
    expect(r.stderr).toMatch(/warning: --per-run shapes table output only/);
  });
});

describe('counts', () => {
  it('a count may be written with an exponent, as a scenario file takes it; a fraction or hex is refused', async () => {
    const plain = await cli('replay', 'scenarios/keeps-asking.yaml', '--runs', '10', '--max-steps', '1000', '--format', 'json');
    const exponent = await cli('replay', 'scenarios/keeps-asking.yaml', '--runs', '1e1', '--max-steps', '1e3', '--format', 'json');
    expect(plain.code).toBe(0);
    expect(exponent.stdout).toBe(plain.stdout);
    for (const value of ['1e-3', '2.5', '0x10']) {
      const r = await cli('replay', 'scenarios/keeps-asking.yaml', '--max-steps', value);
      expect(r.code, value).toBe(2);
      expect(r.stderr).toContain(`field '--max-steps': '${value}' is not a whole number greater than 0`);
    }
    // Past 2^53 − 1 (1e400 too) a count is too large, not "not a number".
    const large = await cli('replay', 'scenarios/keeps-asking.yaml', '--max-steps', '1e400');
    expect(large.stderr).toContain("field '--max-steps': '1e400' is too large: at most 9007199254740991 (2^53 − 1), the largest count held exactly");
  });
});

describe('help', () => {
  /** Every command and subcommand as commander registers it. */
  async function commands(): Promise<Command[]> {
    const { COMMANDS } = await import('../../src/cli/main.js');
    const program = new Command();
    const io = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
    for (const command of COMMANDS) command.register(program, { io, setExitCode: () => undefined });
    const all: Command[] = [];
    const walk = (c: Command) => c.commands.forEach((sub) => (all.push(sub), walk(sub)));
    walk(program);
    return all;
  }

  it('every option states its default or is marked (required); defaults and choices unquoted', async () => {
    const all = await commands();
    expect(all.map((c) => c.name())).toEqual(expect.arrayContaining(['replay', 'whatif', 'compare', 'curve', 'prices', 'derive', 'import']));
    for (const command of all) {
      for (const option of command.options) {
        const stated = option.mandatory ? option.description.startsWith('(required) ') : option.defaultValueDescription !== undefined || option.defaultValue !== undefined;
        expect(stated, `${command.name()} ${option.flags}`).toBe(true);
      }
    }
    for (const name of ['replay', 'whatif', 'compare', 'curve', 'prices', 'import']) {
      const help = (await cli(name, '--help')).stdout;
      expect(help, name).not.toMatch(/default: "|choices: "/);
    }
    expect((await cli('curve', '--help')).stdout).toMatch(/--steps <n> +\(required\) number of steps/);
    expect((await cli('replay', '--help')).stdout).toMatch(/--context <strategy> .*\n.*\(default: full;/);
  });

  it('curve (one synthetic loop, no file of settings, nothing recorded) says its own defaults, never a trace’s or a scenario file’s', async () => {
    const help = (await cli('curve', '--help')).stdout;
    expect(help).not.toMatch(/recorded|scenario file|trace/);
    expect(help).toMatch(/--context <strategy> +full \| window:K[^-]*\(default: full\)\n/);
    expect(help).toMatch(/--cache <mode> +prompt caching: on \| off \(default: off\)/);
    expect(help).toMatch(/--preset <name> +brake preset: 'reference' \(12 steps, \$0\.50, 120\n +s, repeat 3 total\), 'none'/);
    // The commands that read runs keep theirs.
    expect((await cli('sweep', '--help')).stdout).toMatch(/'recorded' \(each run's own/);
  });

  it("errors point at the command's own help", async () => {
    expect((await cli('replay', 'scenarios', '--max-stepz', '3')).stderr).toMatch(/\(run 'loopcost replay --help' for usage\)/);
    expect((await cli('whatif', 'scenarios', '--try', 'max-steps=x')).stderr).toMatch(/\(run 'loopcost whatif --help' for usage\)/);
    expect((await cli('prices', 'derive', 'scenarios', '--bogus')).stderr).toMatch(/\(run 'loopcost prices derive --help' for usage\)/);
  });
});

describe('errors name fields as the user knows them', () => {
  it("an unknown model in a mini-swe-agent run: info.config.model.model_name; given with --model: --model", async () => {
    const source = gunzipSync(readFileSync('../shared/traces/mini-swe-agent/deepseek_chat_dev/sqlfluff__sqlfluff-1517.traj.json.gz')).toString('utf8');
    const path = join(dir, 'typo.traj.json');
    writeFileSync(path, source.replace('"model_name": "deepseek/deepseek-chat"', '"model_name": "deepseek/deepsek-chat"'));
    for (const command of [['replay'], ['whatif', '--try', 'max-steps=3'], ['compare']]) {
      const r = await cli(command[0]!, path, ...command.slice(1));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/typo\.traj\.json field 'info\.config\.model\.model_name': unknown model 'deepseek\/deepsek-chat' \(did you mean deepseek-chat/);
    }
    expect((await cli('replay', 'scenarios', '--model', 'gpt-4oo')).stderr).toMatch(/<command line> field '--model': unknown model 'gpt-4oo'/);
  });

  it('an unknown field in a native trace: did you mean', async () => {
    const path = join(dir, 'typo.jsonl');
    writeFileSync(path, readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8').replace('"resultTokens":12', '"resultTokens":12,"eror":"x"').replace('"systemTokens"', '"sytemTokens":1,"systemTokens"'));
    const r = await cli('replay', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/typo\.jsonl:line 1: unknown field sytemTokens \(did you mean systemTokens\?; see docs\/trace-format\.md\)/);
    expect(r.stderr).toMatch(/typo\.jsonl:line 2 field 'toolCalls\[0\]': unknown field eror \(did you mean error\?/);
  });

  it('a name given twice in one key=value setting is refused, not settled by whichever came last', async () => {
    const tried = await cli('whatif', 'scenarios/reverify-forever.jsonl', '--try', 'max-steps=5,max-repeat=3,max-steps=8');
    expect(tried.code).toBe(2);
    expect(tried.stdout).toBe('');
    expect(tried.stderr).toMatch(/^loopcost: <command line> field '--try': 'max-steps=5,max-repeat=3,max-steps=8' gives max-steps twice \(give each name once; to try another value, add another --try: --try max-steps=A --try max-steps=B\)/);
    const skip = await cli('replay', 'scenarios/reverify-forever.jsonl', '--repeat-action', 'skip,max-skips=2,max-skips=3', '--max-repeat', '2');
    expect(skip.code).toBe(2);
    expect(skip.stderr).toMatch(/field '--repeat-action': 'max-skips=2,max-skips=3' gives max-skips twice \(give each name once\)/);
    // Two --try flags with the same name are two settings, as before.
    expect((await cli('whatif', 'scenarios/reverify-forever.jsonl', '--try', 'max-steps=5', '--try', 'max-steps=8')).code).toBe(0);
  });

  it('a misspelt name in --try or --grid: did you mean', async () => {
    const tried = await cli('whatif', 'scenarios/reverify-forever.jsonl', '--try', 'max_steps=3');
    expect(tried.code).toBe(2);
    expect(tried.stderr).toMatch(/field '--try': 'max_steps=3' is not a brake setting: did you mean max-steps\? \(write name=value pairs/);
    const grid = await cli('sweep', 'scenarios/reverify-forever.jsonl', '--grid', 'max-repeats=2,3');
    expect(grid.code).toBe(2);
    expect(grid.stderr).toMatch(/field '--grid max-repeats': 'max-repeats' is not a setting a grid can vary: did you mean max-repeat\? \(write --grid KEY=V1,V2,\.\.\. with KEY one of: /);
    // Nothing near: no guess, the names it takes.
    expect((await cli('whatif', 'scenarios/reverify-forever.jsonl', '--try', 'speed=3')).stderr).toMatch(/'speed=3' is not a brake setting \(write name=value pairs/);
  });

  it('control characters in a name never reach the terminal raw', async () => {
    const r = await cli('replay', 'scenarios', '--model', 'gpt\u001b[2J');
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toContain("unknown model 'gpt\\x1b[2J'");
  });
});
