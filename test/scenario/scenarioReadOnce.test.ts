/**
 * A scenario file js-yaml reads is read by it once: a file the quick path does not take (no mapping, or a
 * mapping the schema refuses) is told by the quick path's reading of it (load.ts passes it to
 * scenarioShape.ts), not read again for its shape; one the quick path leaves to `yaml` unread (an anchor)
 * is read by js-yaml once, for its shape. What each is told stays what the shape check alone tells.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issuesOf } from './issuesOf.js';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { shapelessYamlIssue } from '../../src/scenario/scenarioShape.js';

// The very module fastYaml.ts requires (Node's require cache): its `load` is what the quick reading calls.
const jsYaml = createRequire(import.meta.url)('js-yaml') as { load: (...args: unknown[]) => unknown };


describe('a scenario file is read by js-yaml once', () => {
  afterEach(() => vi.restoreAllMocks());

  const CASES: { name: string; text: string; code: string }[] = [
    { name: 'a list', text: '- 1\n- 2\n', code: 'not_a_mapping' },
    { name: 'a string', text: 'just a string\n', code: 'not_a_mapping' },
    { name: 'a list after a byte order mark', text: '\uFEFF- a\n', code: 'not_a_mapping' },
    { name: 'a list with an anchor (left to yaml by the quick path)', text: '- &a 1\n- *a\n', code: 'not_a_mapping' },
    { name: 'a mapping the schema refuses', text: 'scenario: loopcost.scenario/1\nbogus: 1\n', code: 'unrecognized_keys' },
    { name: 'a syntax error', text: 'a: [1\n', code: 'invalid_yaml' },
  ];

  for (const { name, text, code } of CASES) {
    it(`${name}: one reading, and the issue the shape check alone gives`, () => {
      const load = vi.spyOn(jsYaml, 'load');
      const issues = issuesOf(() => parseAnyScenario(text, 'x.yaml'));
      expect(load).toHaveBeenCalledTimes(1);
      expect(issues[0]).toMatchObject({ file: 'x.yaml', code });
      const alone = shapelessYamlIssue(text, 'x.yaml');
      if (code === 'not_a_mapping') expect(issues).toEqual([alone]);
      else expect(alone).toBeUndefined();
    });
  }

  it('a .json file (no shape check) and a valid .yaml file are read once too', () => {
    const load = vi.spyOn(jsYaml, 'load');
    expect(issuesOf(() => parseAnyScenario('[1, 2]', 'x.json'))).not.toEqual([]);
    expect(load).toHaveBeenCalledTimes(1);
    const valid = parseAnyScenario(readFileSync('scenarios/flight-search.yaml', 'utf8'), 'flight-search.yaml');
    expect(valid.population?.length).toBeGreaterThan(0);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
