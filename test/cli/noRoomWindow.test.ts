/**
 * A max_tokens at or past the model's window (gpt-4o-mini: 128,000 in the bundled table) refuses every
 * call, so every run stops at its first for $0: under `--context-window model` (the brake), and for
 * synthetic runs without it too (their provider refuses it, provider_refused). Every command that runs the
 * brake says so, by one rule and one message (population/modelWindow.ts); project's threshold line says
 * "no room" rather than a window less max_tokens of 0. A scenario run with it is refused (no run could make
 * a single call: scenario/promptFit.ts), but under a whatif --try, which says so of the try's runs.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
const WARNING =
  "max_tokens 200,000 leaves no room for a prompt in gpt-4o-mini's window of 128,000 tokens: every call is refused (each run stops at its first call, for $0); lower --max-output-tokens";
type Warning = { code: string; message: string };
const noRoom = (stdout: string) => (JSON.parse(stdout).warnings as Warning[]).filter((w) => w.code === 'no_room_in_context_window');
/** The table's warning lines, joined back into one. */
const tableWarnings = (stdout: string) => stdout.replace(/\n {9}/g, ' ');

describe('--max-output-tokens that leaves no room in the model window', () => {
  it('replay says so, in the table and in JSON; not with room, nor without the brake', async () => {
    const json = await cli('replay', PAIR, '--context-window', 'model', '--max-output-tokens', '200000', '--format', 'json');
    expect(noRoom(json.stdout).map((w) => w.message)).toEqual([WARNING]);
    const table = await cli('replay', PAIR, '--context-window', 'model', '--max-output-tokens', '200000');
    expect(tableWarnings(table.stdout)).toContain(`warning: ${WARNING}`);
    // A window exactly the max_tokens sent leaves no room either.
    const exact = await cli('replay', PAIR, '--context-window', 'model', '--max-output-tokens', '128000', '--format', 'json');
    expect(noRoom(exact.stdout)[0]!.message).toContain("max_tokens 128,000 leaves no room for a prompt in gpt-4o-mini's window of 128,000 tokens");
    expect(noRoom((await cli('replay', PAIR, '--context-window', 'model', '--max-output-tokens', '127999', '--format', 'json')).stdout)).toEqual([]);
    expect(noRoom((await cli('replay', PAIR, '--max-output-tokens', '200000', '--format', 'json')).stdout)).toEqual([]);
  });

  it('replay --tree says so with the max_tokens given, not the default', async () => {
    const tree = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
    const json = await cli('replay', '--tree', tree, '--context-window', 'model', '--max-output-tokens', '300000', '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    expect(noRoom(json.stdout).map((w) => w.message).join(' ')).toMatch(/max_tokens 300,000 leaves no room for a prompt in claude-\S+'s window of 200,000 tokens/);
    expect(noRoom((await cli('replay', '--tree', tree, '--context-window', 'model', '--max-output-tokens', '100000', '--format', 'json')).stdout)).toEqual([]);
  });

  it('sweep says so for the grid value that leaves none, in the table and in JSON', async () => {
    const args = ['sweep', PAIR, '--context-window', 'model', '--grid', 'max-output-tokens=4096,200000'];
    expect(noRoom((await cli(...args, '--format', 'json')).stdout).map((w) => w.message)).toEqual([WARNING]);
    expect(tableWarnings((await cli(...args)).stdout)).toContain(`warning: ${WARNING}`);
    expect(noRoom((await cli('sweep', PAIR, '--context-window', 'model', '--grid', 'max-output-tokens=4096,8192', '--format', 'json')).stdout)).toEqual([]);
  });

  it('a scenario is refused instead (no run could make a single call: scenario/promptFit.ts), by every command that prepares it; a whatif --try says so of its runs', async () => {
    const SCENARIO = 'scenarios/flight-search.yaml';
    const REFUSED = /flight-search\.yaml:line \d+ field 'systemTokens': every run's first prompt is 690 tokens \(systemTokens 600 \+ goalTokens 90\); with the max_tokens of 200,000 every request sends, 200,690 tokens, more than gpt-4o-mini's context window of 128,000 tokens: no run could make a single call/;
    for (const args of [
      ['replay', SCENARIO, '--preset', 'none', '--runs', '3', '--max-output-tokens', '200000'],
      ['sweep', SCENARIO, '--preset', 'none', '--runs', '3', '--grid', 'max-output-tokens=4096,200000'],
      ['calibrate', SCENARIO, '--preset', 'none', '--runs', '3', '--grid', 'max-output-tokens=4096,200000'],
      ['project', SCENARIO, '--preset', 'none', '--runs', '3', '--max-output-tokens', '200000'],
      ['check', SCENARIO, '--max-output-tokens', '200000'],
    ]) {
      const r = await cli(...args, '--format', 'json');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(REFUSED);
    }
    // A --try is one setting of the same runs: its runs each stop at their first call, provider_refused, and it is warned of.
    const whatif = await cli('whatif', SCENARIO, '--runs', '3', '--try', 'max-output-tokens=200000', '--format', 'json');
    expect(whatif.code, whatif.stderr).toBe(0);
    expect(noRoom(whatif.stdout).map((w) => w.message)).toEqual([WARNING]);
    // With room, no warning; recorded runs without the brake are not refused (they replay as recorded).
    expect(noRoom((await cli('replay', SCENARIO, '--preset', 'none', '--runs', '3', '--max-output-tokens', '127309', '--format', 'json')).stdout)).toEqual([]);
    expect(noRoom((await cli('check', SCENARIO, '--format', 'json')).stdout)).toEqual([]);
  });

  it("project says so, and its threshold line says every call is refused, not that prompts pass the window in 0 of 2 runs", async () => {
    const table = await cli('project', PAIR, '--context-window', 'model', '--max-output-tokens', '200000');
    const text = table.stdout.replace(/\n(?! )/g, ' ').replace(/\n {9}/g, ' ');
    expect(text).toContain(`warning: ${WARNING}`);
    // The brake stopped every run before its first call: no prompt was made, so none "passed" the window.
    expect(text).toContain("max_tokens 200,000 leaves no room for a prompt in gpt-4o-mini's window of 128,000 tokens: every call is refused (each of the 2 runs stops at its first call, for $0).");
    expect(text).not.toMatch(/prompts pass the context window less max_tokens \(128,000 − 200,000: no room for a prompt\) in 0 of 2 runs/);
    expect(text).not.toContain('= 0 tokens');
    // Without the brake the runs are priced past it (open loop): that line says so, with the steps.
    const open = (await cli('project', PAIR, '--max-output-tokens', '200000')).stdout.replace(/\n(?! )/g, ' ');
    expect(open).toContain("max_tokens 200,000 leaves no room for a prompt in gpt-4o-mini's window of 128,000 tokens: a provider refuses every call, and prompts pass it in 2 of 2 runs, first at step 1");
    expect(noRoom((await cli('project', PAIR, '--context-window', 'model', '--max-output-tokens', '200000', '--format', 'json')).stdout).map((w) => w.message)).toEqual([WARNING]);
  });
});
