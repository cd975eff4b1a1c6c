/**
 * `--try` given twice is keyed on what the spec parser read (its preset and its brakes), not on the text:
 * the order of a setting's parts does not matter, with or without a preset; two presets stay two settings.
 */
import { describe, expect, it } from 'vitest';
import { trySpec } from '../../src/flags/settingsFlags.js';
import { refuseRepeatedTry } from '../../src/population/grid.js';
import { userErrorOf } from '../helpers.js';

const settingsOf = (...specs: string[]) => specs.map((spec) => ({ name: spec, ...trySpec(spec) }));

describe('--try given twice', () => {
  it('a preset with a brake flag, in either order, is one setting given twice', () => {
    const issue = userErrorOf(() => refuseRepeatedTry(settingsOf('max-steps=5,preset=crewai', 'preset=crewai,max-steps=5'))).issues[0]!;
    expect([issue.field, issue.message]).toEqual(['--try', "'max-steps=5,preset=crewai' and 'preset=crewai,max-steps=5' are the same brakes: each --try would run as a setting of its own"]);
    expect(() => refuseRepeatedTry(settingsOf('preset=crewai,max-steps=5', 'preset=crewai ,max-steps=05'))).toThrow(/are the same brakes/);
    expect(() => refuseRepeatedTry(settingsOf('max-repeat=3,max-steps=5', 'max-steps=5,max-repeat=3'))).toThrow(/are the same brakes/);
  });

  it('what differs stays: another preset with the same brakes, a preset and its brakes written out, another value', () => {
    expect(trySpec('preset=langgraph').brakes).toEqual(trySpec('preset=crewai').brakes);
    expect(() => refuseRepeatedTry(settingsOf('preset=langgraph,max-steps=5', 'max-steps=5,preset=crewai'))).not.toThrow();
    expect(() => refuseRepeatedTry(settingsOf('preset=none,max-steps=5', 'max-steps=5'))).not.toThrow();
    expect(() => refuseRepeatedTry(settingsOf('preset=crewai,max-steps=5', 'preset=crewai,max-steps=6'))).not.toThrow();
  });
});
