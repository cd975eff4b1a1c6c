/**
 * A SWE-agent run's settings (model name, cost and call limits) from its run configuration: the
 * `replay_config` a 1.x trajectory embeds, or the `args.yaml` SWE-agent 0.x writes beside it.
 */
import { parse as parseYaml } from 'yaml';
import { UserError } from '../../errors.js';
import { MAX_NESTING_DEPTH, MAX_YAML_ALIASES, pathPastDepth } from '../../io/limits.js';
import { IssueCollector } from '../common/issues.js';
import { embeddedSyntax } from '../common/jsonSyntaxError.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';
import { yamlEscapeError } from '../../io/yamlErrors.js';

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
  }
  if (!isJsonObject(config)) {
    issues.add('replay_config', 'wrong_type', 'expected an object (the run configuration)');
    return undefined;
  }
  const agent = isJsonObject(config.agent) ? config.agent : undefined;
  return settingsOf(issues, agent && isJsonObject(agent.model) ? agent.model : undefined, 'replay_config.agent.model');
}

/** The `args.yaml` SWE-agent 0.x writes per run: `agent.model.model_name`, `per_instance_cost_limit`. */
export function readSidecar(text: string, sidecarPath: string): RunSettings {
  let doc: unknown;
  try {
    // The limits of every reader: alias expansions (a "billion laughs" ladder) and nesting depth.
    doc = parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: true }) as unknown;
  } catch (error) {
    const badEscape = yamlEscapeError(error, sidecarPath, 'the run configuration looks damaged: export it again');
    if (badEscape) throw badEscape;
    if (error instanceof RangeError) throw sidecarTooDeep(sidecarPath);
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new UserError({
      file: sidecarPath,
      ...(line !== undefined ? { line } : {}),
      code: 'invalid_yaml',
      message: `not valid YAML (${(error as Error).message.split('\n')[0]})`,
      hint: 'the args.yaml beside a SWE-agent trajectory must be the file SWE-agent wrote: restore it or remove it and name the model in the file name',
    });
  }
  if (pathPastDepth(doc) !== undefined) throw sidecarTooDeep(sidecarPath);
  if (!isJsonObject(doc)) return {};
  const agent = isJsonObject(doc.agent) ? doc.agent : undefined;
  const model = agent && isJsonObject(agent.model) ? agent.model : isJsonObject(doc.model) ? doc.model : undefined;
  const sidecarIssues = new IssueCollector(sidecarPath, 'fix the args.yaml or remove it and name the model in the file name');
  const settings = settingsOf(sidecarIssues, model, agent ? 'agent.model' : 'model');
  sidecarIssues.throwIfAny();
  return settings;
}

function sidecarTooDeep(sidecarPath: string): UserError {
  return new UserError({
    file: sidecarPath,
    code: 'too_deep',
    message: `nests deeper than ${MAX_NESTING_DEPTH} levels of mappings and lists`,
    hint: 'the args.yaml beside a SWE-agent trajectory must be the file SWE-agent wrote: restore it or remove it and name the model in the file name',
  });
}

/** Settings of a model config object (`model_name` or `name`, `per_instance_cost_limit`, `per_instance_call_limit`). */
function settingsOf(issues: IssueCollector, model: JsonObject | undefined, at: string): RunSettings {
  const settings: RunSettings = {};
  if (!model) return settings;
  const name = model.model_name ?? model.name;
  if (typeof name === 'string' && name.trim() !== '') settings.model = name;
  else if (name !== undefined && name !== null) issues.add(`${at}.name`, 'wrong_type', 'expected the model name (a string)');
  if (typeof model.per_instance_cost_limit === 'number') settings.costLimit = model.per_instance_cost_limit;
  if (typeof model.per_instance_call_limit === 'number') settings.callLimit = model.per_instance_call_limit;
  return settings;
}
