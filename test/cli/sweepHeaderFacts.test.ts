/**
 * A sweep's facts of its runs' headers (import notes, stated strategies) are one value with one merge
 * (sweepHeaderFacts.ts): parts counted apart — a file's, a unit's, a thread's, in any order and any split —
 * join to what one tally of every run in the inputs' order gives, the first import note that of the first
 * noted run. (`--workers 2` byte-identical to 1 end to end: importNotesEveryCommand, recordedStrategyEveryCommand.)
 */
import { describe, expect, it } from 'vitest';
import { joinRunHeaderFacts, runHeaderFactsOf, RunHeaderFactsTally, saysAnything, type RunHeaderFactsPart } from '../../src/cli/actions/sweepHeaderFacts.js';
import { Rng } from '../../src/synthetic/random.js';
import type { Trace } from '../../src/trace/types.js';

/** A run whose header has import notes (`notes`) and a stated strategy (`spec`), or neither. */
function run(source: string, notes?: string[], spec?: string): Trace {
  return {
    source,
    header: { model: 'gpt-4o-mini', ...(notes === undefined ? {} : { importedFrom: { format: 'claude-code', path: source, notes } }), ...(spec === undefined ? {} : { context: { spec } }) },
    calls: [],
  } as unknown as Trace;
}

const RUNS: Trace[] = [
  run('a#1'),
  run('a#2', undefined, 'window:5'),
  run('b#1', ['output tokens are lower bounds', 'a cut line skipped']),
  run('b#2', ['run 2 of 3 in the file']), // places the run only: no note
  run('c#1', undefined, 'mask:10'),
  run('c#2', ['a second note'], 'window:5'),
  run('d#1'),
];

describe('run header facts: one value, one merge', () => {
  it('counts both facts of the runs, in order', () => {
    expect(runHeaderFactsOf(RUNS)).toEqual({
      importNotes: { runs: 2, notes: 3, first: { source: 'b#1', note: 'output tokens are lower bounds' } },
      statedStrategies: [['mask:10', 1], ['window:5', 2]],
    });
    expect(runHeaderFactsOf([run('x'), run('y')])).toEqual({});
    expect(saysAnything({})).toBe(false);
  });

  it('parts of any split, joined in any order, give the one tally of all the runs (seeded splits)', () => {
    const whole = runHeaderFactsOf(RUNS);
    const rng = new Rng(7);
    for (let trial = 0; trial < 50; trial++) {
      // Cut the runs into contiguous units (each unit's place among the inputs its order), shuffled as threads would take them.
      const parts: RunHeaderFactsPart[] = [];
      for (let from = 0; from < RUNS.length; ) {
        const to = Math.min(RUNS.length, from + 1 + Math.floor(rng.next() * 3));
        parts.push({ order: from, facts: runHeaderFactsOf(RUNS.slice(from, to)) });
        from = to;
      }
      for (let i = parts.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [parts[i], parts[j]] = [parts[j]!, parts[i]!];
      }
      expect(joinRunHeaderFacts(parts)).toEqual(whole);
      // A thread's running tally over its files in order, then added to another's: the same as counting run by run.
      const tally = new RunHeaderFactsTally();
      for (const part of [...parts].sort((a, b) => a.order - b.order)) tally.addFacts(part.facts);
      expect(tally.facts()).toEqual(whole);
    }
  });
});
