/**
 * A quick first reading of a scenario file with js-yaml, under a schema that resolves plain scalars by
 * the very rules of the `yaml` package's YAML 1.2 core schema (its tests and its value functions, copied
 * below): on a start, `yaml`'s parser runs cold and takes ~10 ms a file, js-yaml ~1 ms. It is only a
 * first try: a file with anchors, aliases, tags or directives, one js-yaml refuses, and one whose value
 * does not validate, are read again by `yaml` (src/scenario/load.ts), which alone reports problems
 * (with lines) and applies the alias limit. test/scenario/fastYaml.test.ts holds the two readings equal
 * (the same value, or the quick one stepping aside) on the bundled scenarios and random edits of them.
 */
import { createRequire } from 'node:module';
import { yamlDepthProblem } from '../io/yamlDepth.js';

interface JsYamlTypeOptions {
  kind: 'scalar';
  resolve: (data: string | null) => boolean;
  construct: (data: string | null) => unknown;
}
interface JsYaml {
  Type: new (tag: string, options: JsYamlTypeOptions) => unknown;
  FAILSAFE_SCHEMA: { extend(types: { implicit: unknown[] }): unknown };
  load(text: string, options: { schema: unknown; json: boolean }): unknown;
}

// js-yaml is CommonJS; required directly, as load.ts requires yaml.
const jsYaml = createRequire(import.meta.url)('js-yaml') as JsYaml;

/** A scalar rule of `yaml`'s core schema: its test and the value it gives. */
type Rule = [test: RegExp, value: (text: string) => unknown];

/** One implicit js-yaml type for a tag (js-yaml keeps one type per tag): the first of its rules that matches. */
function scalarType(tag: string, rules: Rule[]): unknown {
  // An indexed loop (js-yaml asks every type of every plain scalar, on a start: cold code).
  const ruleOf = (text: string): Rule | undefined => {
    for (let i = 0; i < rules.length; i++) if (rules[i]![0].test(text)) return rules[i];
    return undefined;
  };
  return new jsYaml.Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (data) => ruleOf(data ?? '') !== undefined,
    construct: (data) => ruleOf(data ?? '')![1](data ?? ''),
  });
}

// yaml/dist/schema/common/null.js, core/bool.js, core/int.js, core/float.js (yaml 2), in that order.
const CORE_AS_YAML = jsYaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    scalarType('null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalarType('bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T']]),
    scalarType('int', [
      [/^0o[0-7]+$/, (s) => parseInt(s.substring(2), 8)],
      [/^[-+]?[0-9]+$/, (s) => parseInt(s, 10)],
      [/^0x[0-9a-fA-F]+$/, (s) => parseInt(s.substring(2), 16)],
    ]),
    scalarType('float', [
      [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, (s) => (s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (s) => parseFloat(s)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (s) => parseFloat(s)],
    ]),
  ],
});

/** Anchors, aliases, tags (`&`, `*`, `!` anywhere, comments included), directives, complex keys: left to `yaml`. */
const LEFT_TO_YAML = /[&*!]|^%|^\s*\?(?:\s|$)/m;

/** A text's value as js-yaml reads it (quickYamlValue); undefined when it does not read. */
export type QuickRead = { value: unknown } | undefined;

/**
 * Scenario text as the quick path reads it: js-yaml's reading (`read`), or undefined when the text is
 * left to `yaml` unread (LEFT_TO_YAML). A reading made is passed on (load.ts to scenarioShape.ts), never
 * made twice.
 */
export function quickScenarioReading(text: string): { read: QuickRead } | undefined {
  return LEFT_TO_YAML.test(text) ? undefined : { read: quickYamlValue(text) };
}

/** The value of a reading when it is a mapping; undefined for any other, or none. */
export function mappingRead(read: QuickRead): Record<string, unknown> | undefined {
  const value = read?.value;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The file's value when js-yaml reads it as a mapping; undefined when it is left to `yaml` (a text nested
 * past the readers' limit too: js-yaml never sees it, and `yaml`'s reading refuses it before parsing).
 */
export function quickScenarioValue(text: string): Record<string, unknown> | undefined {
  return mappingRead(quickScenarioReading(text)?.read);
}

/**
 * Any one-document YAML text's value as js-yaml reads it (under the core schema above; anchors and
 * aliases too, with js-yaml's own limits); undefined when it does not read (a syntax error, several
 * documents, nested past the readers' limit). What tells a .yaml input that is no mapping (scenarioShape.ts).
 */
export function quickYamlValue(text: string): QuickRead {
  // Without a leading byte order mark (js-yaml drops one too): a text's reading is its body's (scenarioShape.ts).
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (yamlDepthProblem(body) !== undefined) return undefined;
  try {
    return { value: jsYaml.load(body, { schema: CORE_AS_YAML, json: false }) };
  } catch {
    return undefined;
  }
}
