/**
 * A SWE-agent run's settings (model name, cost and call limits) from its run configuration: the
 * `replay_config` a 1.x trajectory embeds, or the `args.yaml` SWE-agent 0.x writes beside it. A limit
 * SWE-agent could not have run with (not a number, negative, NaN) is refused naming its field (and, in the
 * args.yaml, its line): read past, the recorded budget would vanish from the trace without a word.
 */
import * as Yaml from 'yaml';
import { UserError } from '../../errors.js';
import { MAX_NESTING_DEPTH, MAX_YAML_ALIASES, pathPastDepth } from '../../io/limits.js';
import { parsedJsonTextProblem } from '../../io/jsonText.js';
import { duplicateKeyIssue } from '../../scenario/yamlKeyAlias.js';
import { IssueCollector } from '../common/issues.js';
import { embeddedSyntax } from '../common/jsonSyntaxError.js';
import { describeValue, isJsonObject, type JsonObject } from '../common/jsonValue.js';
import { yamlEscapeError } from '../../io/yamlErrors.js';
import { SIDECAR_HINT } from './sidecarHint.js';

export interface RunSettings {
  model?: string;
  costLimit?: number;
  callLimit?: number;
}

/** SWE-agent 1.x embeds its run config as `replay_config` (an object or a JSON string). */
export function readReplayConfig(issues: IssueCollector, value: unknown): RunSettings | undefined {
  if (value === undefined || value === null) return undefined;
  let config: unknown = value;
  if (typeof value === 'string') {
    try {
      config = JSON.parse(value) as unknown;
    } catch (error) {
      issues.add('replay_config', 'invalid_json', `is a string that ${embeddedSyntax(value, error, 'string').message}`);
      return undefined;
    }
    // The rule of every JSON reader (src/io/jsonText.ts): a key given twice would keep the last silently.
    const problem = parsedJsonTextProblem(value, config);
    if (problem !== undefined) {
      issues.add(problem.field === undefined ? 'replay_config' : `replay_config.${problem.field}`, problem.code, `${problem.message} (in the replay_config string)`);
      return undefined;
    }
  }
  if (!isJsonObject(config)) {
    issues.add('replay_config', 'wrong_type', 'expected an object (the run configuration)');
    return undefined;
  }
  const agent = isJsonObject(config.agent) ? config.agent : undefined;
  return settingsOf(issues, agent && isJsonObject(agent.model) ? agent.model : undefined, 'replay_config.agent.model');
}

/**
 * The `args.yaml` SWE-agent 0.x writes per run: `agent.model.model_name`, `per_instance_cost_limit`. An
 * empty one (or one of no mapping) is refused rather than read as absent: SWE-agent always writes the whole
 * configuration, so an empty file is a copy cut short, and the limits it held would be lost unsaid.
 */
export function readSidecar(text: string, sidecarPath: string): RunSettings {
  const { doc, value } = sidecarDocument(text, sidecarPath);
  if (!isJsonObject(value)) {
    const what = text.trim() === '' ? 'is empty' : `holds ${describeValue(value)}`;
    throw new UserError({ file: sidecarPath, code: 'wrong_type', message: `${what}, not the run configuration (a mapping with agent.model)`, hint: SIDECAR_HINT });
  }
  const agent = isJsonObject(value.agent) ? value.agent : undefined;
  const model = agent && isJsonObject(agent.model) ? agent.model : isJsonObject(value.model) ? value.model : undefined;
  const sidecarIssues = new IssueCollector(sidecarPath, 'fix the args.yaml or remove it and name the model in the file name');
  const settings = settingsOf(sidecarIssues, model, agent ? 'agent.model' : 'model');
  if (sidecarIssues.issues.length > 0) throw new UserError(sidecarIssues.issues.map((issue) => ({ ...issue, ...lineOfField(doc, issue.field) })));
  return settings;
}

/** The line of the node `field` (a dotted path of keys) names in the args.yaml, as an issue's `line`. */
function lineOfField(doc: SidecarDoc, field: string | undefined): { line?: number } {
  const node = field === undefined ? undefined : doc.yaml.getIn(field.split('.'), true);
  const offset = Yaml.isNode(node) ? node.range?.[0] : undefined;
  return offset === undefined ? {} : { line: doc.lines.linePos(offset).line };
}

interface SidecarDoc {
  yaml: Yaml.Document.Parsed;
  lines: Yaml.LineCounter;
}

/** The args.yaml parsed, with the limits of every reader: alias expansions (a "billion laughs" ladder) and nesting depth. */
function sidecarDocument(text: string, sidecarPath: string): { doc: SidecarDoc; value: unknown } {
  const lines = new Yaml.LineCounter();
  let yaml: Yaml.Document.Parsed;
  let value: unknown;
  try {
    yaml = Yaml.parseDocument(text, { lineCounter: lines, uniqueKeys: true });
    const twice = duplicateKeyIssue(yaml, yaml.errors, { yaml: Yaml, file: sidecarPath, linePos: (offset) => lines.linePos(offset) });
    if (twice !== undefined) throw new UserError(twice);
    if (yaml.errors.length > 0) throw yaml.errors[0];
    value = yaml.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown;
  } catch (error) {
    if (error instanceof UserError) throw error;
    const badEscape = yamlEscapeError(error, sidecarPath, 'the run configuration looks damaged: export it again');
    if (badEscape) throw badEscape;
    if (error instanceof RangeError) throw sidecarTooDeep(sidecarPath);
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new UserError({
      file: sidecarPath,
      ...(line !== undefined ? { line } : {}),
      code: 'invalid_yaml',
      message: `not valid YAML (${(error as Error).message.split('\n')[0]})`,
      hint: SIDECAR_HINT,
    });
  }
  if (pathPastDepth(value) !== undefined) throw sidecarTooDeep(sidecarPath);
  return { doc: { yaml, lines }, value };
}

function sidecarTooDeep(sidecarPath: string): UserError {
  return new UserError({ file: sidecarPath, code: 'too_deep', message: `nests deeper than ${MAX_NESTING_DEPTH} levels of mappings and lists`, hint: SIDECAR_HINT });
}

/** Settings of a model config object (`model_name` or `name`, `per_instance_cost_limit`, `per_instance_call_limit`). */
function settingsOf(issues: IssueCollector, model: JsonObject | undefined, at: string): RunSettings {
  const settings: RunSettings = {};
  if (!model) return settings;
  const nameKey = model.model_name !== undefined && model.model_name !== null ? 'model_name' : 'name';
  const name = model[nameKey];
  if (typeof name === 'string' && name.trim() !== '') settings.model = name;
  else if (name !== undefined && name !== null) issues.add(`${at}.${nameKey}`, 'wrong_type', `expected the model name (a string), got ${describeValue(name)}`);
  const costLimit = limitOf(issues, model.per_instance_cost_limit, `${at}.per_instance_cost_limit`, 'cost');
  const callLimit = limitOf(issues, model.per_instance_call_limit, `${at}.per_instance_call_limit`, 'call');
  if (costLimit !== undefined) settings.costLimit = costLimit;
  if (callLimit !== undefined) settings.callLimit = callLimit;
  return settings;
}

const LIMIT_WORDS = { cost: 'a cost limit in USD, a number', call: 'a call limit, a whole number' } as const;

/**
 * A per-instance limit as SWE-agent reads it (`0 < limit <= spent` stops the run, so 0 is no limit): a
 * finite number ≥ 0 (a call limit whole); null or absent is none. Anything else is an issue at `field`.
 */
function limitOf(issues: IssueCollector, value: unknown, field: string, kind: keyof typeof LIMIT_WORDS): number | undefined {
  if (value === undefined || value === null) return undefined;
  const isNumber = typeof value === 'number' && Number.isFinite(value);
  if (isNumber && value >= 0 && (kind === 'cost' || Number.isInteger(value))) return value;
  const code = !isNumber ? 'wrong_type' : value < 0 ? 'negative_number' : 'not_integer';
  issues.add(field, code, `is ${describeValue(value)}: expected ${LIMIT_WORDS[kind]} ≥ 0 (0 = no limit, as SWE-agent reads it)`, `write the limit the run had (0 for none), or restore the file SWE-agent wrote`);
  return undefined;
}
