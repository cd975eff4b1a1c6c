/**
 * The one walk over a scenario file's `yaml` document (src/scenario/yamlWalk.ts) and the one way a path is
 * written as a field, which the key-given-twice check (yamlKeyAlias.ts), the tag check (yamlTags.ts) and
 * the schema's and the later rules' issues (load.ts, scenarioRules.ts) all use: what each of them names
 * stays as it was when each walked on its own.
 */
import { LineCounter, parseDocument } from 'yaml';
import * as yaml from 'yaml';
import { describe, expect, it } from 'vitest';
import { issuesOf } from './issuesOf.js';
import { parseAnyScenario, parseWithYaml } from '../../src/scenario/load.js';
import { fieldPath } from '../../src/fieldPath.js';
import { walkYaml, type YamlVisit } from '../../src/scenario/yamlWalk.js';


function visits(text: string, intoKeys: boolean, stopAt?: string): string[] {
  const doc = parseDocument(text, { lineCounter: new LineCounter() });
  const seen: string[] = [];
  walkYaml(doc, { yaml, intoKeys }, ({ node, path, isKey }: YamlVisit) => {
    const shown = `${isKey ? 'key ' : ''}${fieldPath(path) || '.'}${yaml.isScalar(node) ? `=${String(node.value)}` : ''}`;
    seen.push(shown);
    return shown === stopAt;
  });
  return seen;
}

describe('fieldPath', () => {
  it('writes keys with dots and indexes in brackets, for a zod path and a YAML path alike', () => {
    expect(fieldPath([])).toBe('');
    expect(fieldPath(['population', 0, 'steps'])).toBe('population[0].steps');
    expect(fieldPath([0, 'a'])).toBe('[0].a');
    expect(fieldPath(['expect', 'behaviours', 'a.b'])).toBe('expect.behaviours.a.b');
    // continuing a field: every key after it takes a dot (a record's own path after `calls[3]`)
    expect(fieldPath(['toolCalls', 0, 'resultTokens'], 'calls[3]')).toBe('calls[3].toolCalls[0].resultTokens');
    expect(fieldPath(['outputTokens'], '')).toBe('.outputTokens');
  });
});

describe('walkYaml', () => {
  it('visits every node in document order with its path, each key just before its value', () => {
    expect(visits('a: 1\nb: [x, {c: 2}]\n', false)).toEqual(['.', 'key a=a', 'a=1', 'key b=b', 'b', 'b[0]=x', 'b[1]', 'key b[1].c=c', 'b[1].c=2']);
  });

  it('looks inside a key that is a mapping only with intoKeys', () => {
    expect(visits('? {k: 1}\n: v\n', false)).toEqual(['.', 'key {"k":1}', '{"k":1}=v']);
    expect(visits('? {k: 1}\n: v\n', true)).toEqual(['.', 'key {"k":1}', 'key {"k":1}.k=k', '{"k":1}.k=1', '{"k":1}=v']);
  });

  it('stops once the visit says so', () => {
    expect(visits('a: 1\nb: 2\n', false, 'a=1')).toEqual(['.', 'key a=a', 'a=1']);
  });
});

describe('what the checks that walk a scenario file name', () => {
  it('a key given twice: at its line and field', () => {
    expect(issuesOf(() => parseAnyScenario('x:\n  - y: 1\n    y: 2\n', 'x.yaml'))).toEqual([
      expect.objectContaining({ line: 3, field: 'x[0].y', code: 'duplicate_key', message: 'key "y" is given twice in the same mapping' }),
    ]);
  });

  it('a key given twice inside a key that is a mapping: not looked for there, said in the syntax error’s words', () => {
    expect(issuesOf(() => parseWithYaml('? {a: 1, a: 2}\n: v\n', 'x.yaml'))).toEqual([
      expect.objectContaining({ line: 1, code: 'invalid_yaml', message: 'not valid YAML at column 10: Map keys must be unique' }),
    ]);
  });

  it('tags past the core schema’s: on keys and values, inside a key too, each at its line and field', () => {
    expect(issuesOf(() => parseWithYaml('a: 1\n!foo b: 2\nc: !!binary x\nd:\n  ? {e: !custom 1}\n  : v\n', 'x.yaml'))).toEqual([
      expect.objectContaining({ line: 2, field: 'b', code: 'unknown_yaml_tag', message: expect.stringContaining('the YAML tag !foo,') }),
      expect.objectContaining({ line: 3, field: 'c', code: 'unknown_yaml_tag', message: expect.stringContaining('the YAML tag !!binary,') }),
      expect.objectContaining({ line: 5, field: 'd.{"e":"1"}.e', code: 'unknown_yaml_tag', message: expect.stringContaining('the YAML tag !custom,') }),
    ]);
  });

  it('the later rules name their fields the same way (expect.behaviours.<name>, brakes.<key>)', () => {
    const base = 'scenario: loopcost.scenario/1\nmodel: gpt-4o-mini\nsystemTokens: 300\ngoalTokens: 40\npopulation:\n  - behaviour: healthy\n    weight: 1\n    steps: 3\n    outputTokens: 100\n    toolResultTokens: 100\n';
    expect(issuesOf(() => parseWithYaml(`${base}expect:\n  behaviours:\n    no.body: { steps: { max: 3 } }\n`, 'x.yaml'))).toEqual([
      expect.objectContaining({ line: 13, field: 'expect.behaviours.no.body', code: 'unknown_behaviour_name' }),
    ]);
    expect(issuesOf(() => parseWithYaml(`${base}brakes: { preset: recorded }\n`, 'x.yaml'))).toEqual([expect.objectContaining({ line: 11, field: 'brakes.preset' })]);
  });
});
