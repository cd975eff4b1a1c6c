/**
 * What marks a scenario file (`scenario: loopcost.scenario/1`), and what tells a scenario file that lacks
 * the mark: its own top-level keys. Light on purpose (no YAML parser, no zod): the input split
 * (src/scenario/inputs.ts) and trace format detection (src/import/formats.ts) both ask it.
 */

/** The declaration a scenario file carries, in YAML or JSON. */
export const SCENARIO_MARK = /(^|[{,\s])["']?scenario["']?\s*:\s*["']?loopcost\.scenario\//m;

/** What the loaders say of a file with a scenario's keys but no `scenario:` line (one wording, both places). */
export const MISSING_SCENARIO_LINE = {
  code: 'no_scenario_line',
  message: 'has no `scenario: loopcost.scenario/1` line',
  hint: 'a scenario file declares itself: add `scenario: loopcost.scenario/1` as its first line; see docs/scenarios.md',
} as const;

/**
 * What the loaders say of scenario content given where a scenario file is not read from: a file of another
 * name (`.txt`, `.yml.gz`), standard input or a pipe (one wording, both places: the input split and the
 * trace readers). Scenario files are found by their name, and a relative `traces:` path resolves against
 * the file's directory: neither holds for content without a file of its own.
 */
export const SCENARIO_NOT_AS_FILE = {
  code: 'scenario_not_a_file',
  message: 'this looks like a scenario file (it declares `scenario: loopcost.scenario/`); give it as a .yaml file',
  hint: 'a scenario file is read only as a regular file named .yaml, .yml or .json: scenario files are found by their name, and a relative `traces:` path resolves against the file’s directory; save it as such a file (e.g. scenario.yaml) and give that path',
} as const;

/** Top-level keys of a scenario file no trace format has at its top level. */
const SCENARIO_ONLY_KEYS = ['population', 'traces', 'systemTokens', 'goalTokens', 'promptOverhead', 'cacheHitShare', 'expect', 'hardCapSteps', 'runsPerDay'];
/** The scenario's other top-level keys (a test holds both lists to the schema's). */
const SHARED_KEYS = ['name', 'description', 'model', 'provider', 'latency', 'brakes', 'context', 'runs', 'seed'];
export const SCENARIO_TOP_KEYS: readonly string[] = [...SCENARIO_ONLY_KEYS, ...SHARED_KEYS];

/** Keys at column 0 of YAML text (`population:`, `"model":`). */
function yamlTopKeys(text: string): string[] {
  return [...text.matchAll(/^["']?([A-Za-z][\w-]*)["']?[ \t]*:(?:\s|$)/gm)].map((match) => match[1]!);
}

/** A JSON document's top-level keys; none when the text is not one whole JSON object. */
function jsonTopKeys(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/** True when the keys are a scenario's: two or more of its top-level keys, one of them its own. */
export function scenarioKeys(keys: readonly string[]): boolean {
  const known = new Set(keys.filter((key) => SCENARIO_TOP_KEYS.includes(key)));
  return known.size >= 2 && [...known].some((key) => SCENARIO_ONLY_KEYS.includes(key));
}

/**
 * True when YAML or JSON text reads as a scenario file without its `scenario:` line (`population:` and
 * `model:` at its top level, say). JSON is parsed only when it names a scenario-only key.
 */
export function looksLikeUnmarkedScenario(text: string): boolean {
  if (SCENARIO_MARK.test(text)) return false;
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!body.startsWith('{')) return scenarioKeys(yamlTopKeys(body));
  return new RegExp(`"(${SCENARIO_ONLY_KEYS.join('|')})"\\s*:`).test(body) && scenarioKeys(jsonTopKeys(body));
}

/**
 * True when text has a top-level `scenario:` key, whatever follows it (`scenario: [unclosed`, a version
 * misspelt): YAML at column 0, or JSON's first key. What makes a file named .yaml, .yml or .json a scenario
 * file when it is not valid YAML, so that the scenario loader says where it is broken, not the trace
 * readers that it is no trace format (no trace format has a top-level `scenario` key).
 */
export function namesScenarioKey(text: string): boolean {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  return body.startsWith('{') ? /^\{\s*["']scenario["']\s*:/.test(body) : yamlTopKeys(body).includes('scenario');
}
