/**
 * Input handling an audit found wrong: scenario content given where a scenario file is not read from
 * (a pipe, standard input, another name), a trace given to `generate`, a sub-agent transcript missing
 * from a session tree (its cost left out of every total), a grid value given twice, and the messages of
 * `project`'s sizes, a scenario's `.inf`, a price override's window 0 and impossible prices, and `prices
 * derive` when no model can be derived. Each is exit 2 with a message that says what is wrong, or (the
 * missing transcript) a warning on stderr.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const FLIGHT = 'scenarios/flight-search.yaml';
const PAIR = 'scenarios/recorded-pair.jsonl';
const BIN = 'bin/loopcost.js';
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const LOOKS_LIKE = /this looks like a scenario file \(it declares `scenario: loopcost\.scenario\/`\); give it as a \.yaml file \(a scenario file is read only as a regular file named \.yaml, \.yml or \.json: scenario files are found by their name, and a relative `traces:` path resolves against the file’s directory/;

function refused(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at |is not a trace format|is not a scenario file/);
}

describe('scenario content where a scenario file is not read from', () => {
  it('a regular file of another name (.txt, .yml.gz): refused as a scenario file given under the wrong name, by every command', async () => {
    const dir = tempDir();
    const txt = join(dir, 'flight.txt');
    const gz = join(dir, 'flight.yml.gz');
    copyFileSync(FLIGHT, txt);
    writeFileSync(gz, gzipSync(readFileSync(FLIGHT)));
    for (const file of [txt, gz]) {
      refused(await cli('replay', file), new RegExp(`${file}: ${LOOKS_LIKE.source}`));
      refused(await cli('check', file), new RegExp(`${file}: ${LOOKS_LIKE.source}`));
      refused(await cli('sweep', file, '--grid', 'max-steps=5'), LOOKS_LIKE);
    }
  });

  it('check of standard input or a pipe: refused as not a file (its content is not read)', async () => {
    refused(await cli('check', '-'), /<stdin>: is standard input, not a file: check reads scenario files, and only from files \(a scenario file is read only as a regular file named \.yaml/);
    const fifo = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    refused(await cli('check', fifo), new RegExp(`${fifo}: is a pipe or a device, not a file: check reads scenario files`));
  });

  it('replay and serve of a scenario on standard input or a pipe: told it looks like a scenario file', () => {
    const input = readFileSync(FLIGHT);
    for (const argv of [['replay', '-'], ['serve', '-', '--check']]) {
      const r = spawnSync(process.execPath, [BIN, ...argv], { input, encoding: 'utf8' });
      refused({ code: r.status!, stderr: r.stderr }, new RegExp(`<stdin>: ${LOOKS_LIKE.source}`));
    }
    const piped = spawnSync('bash', ['-c', `${JSON.stringify(process.execPath)} ${BIN} replay <(cat ${FLIGHT})`], { encoding: 'utf8' });
    refused({ code: piped.status!, stderr: piped.stderr }, new RegExp(`/dev/fd/\\d+: ${LOOKS_LIKE.source}`));
  });

  it('a JSON scenario on standard input is told so too, not "has no scenario: line"', () => {
    const json = JSON.stringify({ scenario: 'loopcost.scenario/1', model: 'gpt-4o-mini', population: [{ behaviour: 'healthy', weight: 1 }] });
    const r = spawnSync(process.execPath, [BIN, 'replay', '-'], { input: json, encoding: 'utf8' });
    refused({ code: r.status!, stderr: r.stderr }, LOOKS_LIKE);
  });
});

describe('generate given a trace', () => {
  it('one message: it is a trace, generate needs a scenario file, and which commands read traces', async () => {
    const r = await cli('generate', PAIR);
    refused(r, new RegExp(`${PAIR}: is a native JSONL trace, not a scenario file: generate needs a scenario file`));
    expect(r.stderr).toMatch(/traces are read by replay, whatif, compare, sweep/);
    expect(r.stderr).not.toMatch(/not valid YAML/);
  });
});

describe('a session tree whose sub-agent transcript is missing', () => {
  it('a warning on stderr, one line: the totals leave it out, and where its transcript was looked for', async () => {
    const dir = tempDir();
    const session = join(dir, `${SESSION}.jsonl`);
    copyFileSync(`test/fixtures/claude-code/${SESSION}.jsonl`, session);
    const r = await cli('replay', '--tree', session);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((line) => line.includes('aac57f5'));
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^warning: ${session}#main\\.1: sub-agent aac57f5 \\(started by tool call toolu_\\w+, ${SESSION}\\.jsonl line \\d+\\) has no transcript file \\(looked for as ${dir}/${SESSION}/subagents/agent-aac57f5\\.jsonl or \\.jsonl\\.gz, and as ${dir}/agent-aac57f5\\.jsonl or \\.jsonl\\.gz naming this session\\): its calls and their cost are left out of the totals$`),
      ),
    ]);
    const whole = await cli('replay', '--tree', `test/fixtures/claude-code/${SESSION}.jsonl`);
    expect(whole.code).toBe(0);
    expect(whole.stderr).not.toMatch(/warning/);
  });
});

describe('a grid value given twice', () => {
  it('refused, naming the value, in sweep and calibrate; the same for --try twice', async () => {
    refused(await cli('sweep', FLIGHT, '--grid', 'max-steps=5,5'), /field '--grid max-steps': '5' is given twice: each value would run as a configuration of its own \(give each value once: --grid max-steps=5\)/);
    refused(await cli('sweep', FLIGHT, '--grid', 'max-steps=5,6,05'), /'5' and '05' are the same setting.*--grid max-steps=5,6\)/);
    refused(await cli('sweep', FLIGHT, '--grid', 'context=full,window:5,full'), /field '--grid context': 'full' is given twice/);
    refused(await cli('calibrate', FLIGHT, '--grid', 'max-repeat=2,3,2'), /field '--grid max-repeat': '2' is given twice/);
    refused(await cli('whatif', PAIR, '--try', 'max-steps=5', '--try', 'max-steps=5'), /field '--try': 'max-steps=5' is given twice/);
    refused(await cli('sweep', FLIGHT, '--grid', 'preset=crewai,crewai'), /field '--grid preset': 'crewai' is given twice/);
  });

  it('two presets with the same brakes are two named settings, not one given twice (a comparison of frameworks)', async () => {
    const r = await cli('sweep', FLIGHT, '--runs', '5', '--grid', 'preset=langgraph,crewai', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).configurations.map((row: { settings: string }) => row.settings)).toEqual(['preset=langgraph', 'preset=crewai']);
    const t = await cli('whatif', PAIR, '--try', 'preset=langgraph', '--try', 'preset=crewai');
    expect(t.code, t.stderr).toBe(0);
  });
});

describe('project sizes', () => {
  it('--runs-per-day past 2^53 − 1 is named as too large, not as no whole number', async () => {
    refused(await cli('project', FLIGHT, '--runs-per-day', '1e16'), /'1e16' is too large: at most 9007199254740991 \(2\^53 − 1\), the most runs a day a projection takes/);
  });

  it('a period of more runs than counted exactly, or totals past what the report holds exactly, is refused with the most that fits', async () => {
    refused(await cli('project', FLIGHT, '--runs-per-day', '9007199254740991'), /9007199254740991 runs a day for 30 days is 270215977642229730 runs, past 9007199254740991 \(2\^53 − 1\), the most counted exactly \(give at most 300239975158033 runs a day/);
    refused(await cli('project', FLIGHT, '--runs-per-day', '300239975158033'), /may total \$\d+\.\d{4} \(\$0\.52\d+ a run, the worst case the brakes allow\), past \$90071992547\.4099 .*\(give at most \d+ runs a day, or fewer --days\)/);
    const fine = await cli('project', FLIGHT, '--runs-per-day', '100', '--trials', '10');
    expect(fine.code).toBe(0);
  });
});

describe('scenario and price file messages', () => {
  it('runs: .inf says infinite is not a number of runs', async () => {
    const dir = tempDir();
    const file = join(dir, 'inf.yaml');
    writeFileSync(file, readFileSync(FLIGHT, 'utf8').replace(/^runs: .*$/m, 'runs: .inf'));
    refused(await cli('replay', file), /field 'runs': is \.inf: infinite is not a number of runs; give a finite number/);
  });

  it('an override entry whose only field is max_input_tokens: 0 says 0, not null', async () => {
    const dir = tempDir();
    const prices = join(dir, 'window0.json');
    writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { max_input_tokens: 0 } }));
    refused(await cli('replay', FLIGHT, '--prices-override', prices), /gives no value \(max_input_tokens: 0, which reads as no window/);
  });

  it('an override pricing a cache read above input names the price file and its entry, and who asked for the model', async () => {
    const dir = tempDir();
    const prices = join(dir, 'cache-read.json');
    writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { input_cost_per_token: 1e-7, cache_read_input_token_cost: 5e-7 } }));
    const scenario = await cli('replay', FLIGHT, '--prices-override', prices);
    refused(scenario, new RegExp(`${prices}:line 1 field 'gpt-4o-mini\\.cache_read_input_token_cost': entry for model 'gpt-4o-mini' leaves cache_read_input_token_cost`));
    expect(scenario.stderr).toMatch(new RegExp(`the model is asked for by ${FLIGHT} \\(model\\)`));
    const trace = await cli('replay', PAIR, '--prices-override', prices);
    refused(trace, new RegExp(`${prices}:line 1 field 'gpt-4o-mini\\.cache_read_input_token_cost'`));
    expect(trace.stderr).toMatch(/the model is asked for by scenarios\/recorded-pair\.jsonl#1 \(header\.model\)/);
  });

  it('prices derive with no derivable model names the file its costs came from', async () => {
    const dir = tempDir();
    const header = (model: string) => JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model, systemTokens: 0, goalTokens: 0 });
    const call = (input: number, cost?: number) => JSON.stringify({ type: 'call', inputTokens: input, outputTokens: 10, ...(cost === undefined ? {} : { recordedCostUsd: cost }) });
    const end = JSON.stringify({ type: 'end', outcome: 'completed' });
    const costly = join(dir, 'costly.jsonl');
    writeFileSync(costly, [header('m-negative'), call(100, 0.01), call(200, 0.005), call(300, 0.001), end].join('\n') + '\n');
    writeFileSync(join(dir, 'plain.jsonl'), [header('gpt-4o-mini'), call(100), end].join('\n') + '\n');
    const r = await cli('prices', 'derive', dir);
    refused(r, new RegExp(`${costly} field 'm-negative': no prices derived from the recorded costs of this file: the recorded costs fit only with a negative input price`));
    expect(r.stderr).toMatch(/the other 1 run recorded no cost, so there is no other model to derive/);
  });
});
