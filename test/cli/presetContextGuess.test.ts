/**
 * Two newcomer slips on the command line get the next step, not only a list: `--preset openai-agent`
 * guesses openai-agents (as a misspelt grid key or context kind is guessed), and `--context window=3`
 * (a kind written with '=' for its ':') is told `write window:3`, for every strategy that takes a value.
 * Before, the first listed the presets with no guess and the second asked "did you mean window?".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { UserError } from '../../src/errors.js';

const dir = tempDir();
const trace = join(dir, 'run.jsonl');
writeFileSync(trace, ONE_CALL_RUN);

/** The message a bad `--context` value gets, through the shared parser (its hint, the forms, aside). */
function contextRefusal(spec: string): string {
  try {
    parseContextSpec(spec, '--context');
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return error.issues[0]!.message;
  }
  throw new Error(`'${spec}' was read`);
}

describe('--preset: a name near a preset is guessed', () => {
  it('replay --preset openai-agent: did you mean openai-agents?, after the list; exit 2', async () => {
    const r = await cli('replay', trace, '--preset', 'openai-agent');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field '--preset': 'openai-agent' is not a preset \(none, reference, openai-agents, .*recorded\): did you mean openai-agents\?\n/);
  });

  it('whatif --try preset=openai-agent guesses too (the list without recorded); a name near none is listed only', async () => {
    const tried = await cli('whatif', trace, '--try', 'preset=openai-agent');
    expect(tried.code).toBe(2);
    expect(tried.stderr).toMatch(/'openai-agent' is not a preset \([^)]*\): did you mean openai-agents\?/);
    const far = await cli('replay', trace, '--preset', 'zzzzzz');
    expect(far.code).toBe(2);
    expect(far.stderr).toContain("'zzzzzz' is not a preset (");
    expect(far.stderr).not.toContain('did you mean');
  });

  it('whatif --preset openai-agent: its example --try names the preset near the value', async () => {
    const r = await cli('whatif', trace, '--preset', 'openai-agent');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('e.g. --try preset=openai-agents;');
  });
});

describe("--context: a kind written with '=' is told the ':' form", () => {
  const cases: [string, string][] = [
    ['window=3', 'window:3'],
    ['mask=10', 'mask:10'],
    ['windw=3', 'window:3'],
    ['summary=trigger=80%,keep=2,tokens=500', 'summary:trigger=80%,keep=2,tokens=500'],
    ['hybrid=mask=5,trigger=80%,keep=2,tokens=500', 'hybrid:mask=5,trigger=80%,keep=2,tokens=500'],
  ];
  for (const [given, written] of cases) {
    it(`${given}: write ${written}`, () => {
      const message = contextRefusal(given);
      expect(message).toBe(`'${given}': not a context strategy: write ${written} (':' after the kind, '=' only within its options)`);
    });
  }

  it('on the command line: exit 2, the message and the forms every strategy takes', async () => {
    const r = await cli('replay', trace, '--context', 'window=3');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field '--context': 'window=3': not a context strategy: write window:3 (");
    expect(r.stderr).not.toContain('did you mean window?');
  });

  it("what is not a kind with '=' keeps its own words: full=1, a misspelt kind with ':', an option written with ':'", () => {
    expect(contextRefusal('full=1')).toContain('did you mean full?');
    expect(contextRefusal('Windw:3')).toContain('did you mean window:3?');
    expect(contextRefusal('cap=500')).toBe("'cap=500': not a context strategy");
    expect(contextRefusal('mask:10,placeholder:5')).toContain("unknown key 'placeholder:5' for mask");
  });
});
