/**
 * `serve --max-cost 0.5` and `serve --model gpt-4o` failed as commander's `unknown option`, leaving the user
 * to guess whether serve brakes or reprices at all. Each brake flag of replay, and --model, is now refused naming
 * what serve does instead (no brakes: the loop that calls it brakes; no repricing: replay reprices) and the
 * command to run; exit 2, before any input is read, nothing listening.
 */
import { describe, expect, it } from 'vitest';
import { BRAKE_KEYS } from '../../src/flags/brakeKeys.js';
import { cli } from './run.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
const USAGE = "(run 'loopcost serve --help' for usage)\n";
const NO_BRAKES = "serve applies no brakes: it answers every call the agent under test makes, and the loop that calls it brakes (runAgentLoop's brakes, or your agent's own limits)";

describe('serve: brake and pricing flags say why serve takes none', () => {
  it('--max-cost: no brakes, brake the calling loop or replay the recording under it', async () => {
    const r = await cli('serve', TRACE, '--max-cost', '0.5', '--port', '0');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`loopcost: <command line> field '--max-cost': ${NO_BRAKES} (give the brake to that loop, or replay what it recorded under it: loopcost replay RUN.jsonl --max-cost 0.5)\n${USAGE}`);
    expect(r.stderr).not.toMatch(/unknown option/);
  });

  it('--model: no repricing, replay reprices', async () => {
    const r = await cli('serve', TRACE, '--model', 'gpt-4o', '--port', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "loopcost: <command line> field '--model': serve applies no repricing: each session is priced as its recording's model (a scenario file's, for its synthetic runs) (price what the agent recorded as another model with replay: loopcost replay RUN.jsonl --model gpt-4o)\n" + USAGE,
    );
  });

  it('every brake flag of replay is refused so, each one given named, before the inputs are read', async () => {
    for (const name of Object.keys(BRAKE_KEYS)) {
      const r = await cli('serve', 'no-such-file.jsonl', `--${name}`, '3', '--port', '0');
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(new RegExp(`^loopcost: <command line> field '--${name}': serve applies no brakes`));
      expect(r.stderr, name).not.toMatch(/no-such-file/);
    }
    const both = await cli('serve', TRACE, '--preset', 'reference', '--model', 'gpt-4o', '--port', '0');
    expect(both.stderr.split('\n').filter((line) => /field '--(preset|model)'/.test(line))).toHaveLength(2);
  });

  it('serve --help does not list them', async () => {
    const r = await cli('serve', '--help');
    expect(r.stdout).not.toMatch(/--max-cost|--model/);
  });
});
