/**
 * Which model a SWE-agent run used. SWE-agent names models by its own shortcuts (`gpt4`,
 * `claude-sonnet-3.5`), in its run config, in the `args.yaml` beside a 0.x trajectory, or only in the run's
 * file name; this resolves them to API model ids and picks the source that wins.
 */
import { basename } from 'node:path';
import { UserError } from '../../errors.js';

/**
 * SWE-agent 0.x model shortcuts (`sweagent/agent/models.py`, `SHORTCUTS`), plus the spellings used in run
 * names. `gpt4` is gpt-4-1106-preview, not gpt-4: the recorded costs of the gpt4 runs are exactly
 * tokens_sent·$10/M + tokens_received·$30/M.
 */
export const SWE_AGENT_MODEL_SHORTCUTS: Readonly<Record<string, string>> = {
  gpt3: 'gpt-3.5-turbo-1106',
  'gpt3-legacy': 'gpt-3.5-turbo-16k-0613',
  'gpt3-0125': 'gpt-3.5-turbo-0125',
  gpt4: 'gpt-4-1106-preview',
  'gpt4-legacy': 'gpt-4-0613',
  'gpt4-0125': 'gpt-4-0125-preview',
  'gpt4-turbo': 'gpt-4-turbo-2024-04-09',
  gpt4o: 'gpt-4o-2024-05-13',
  'gpt4o-mini': 'gpt-4o-mini-2024-07-18',
  'claude-2': 'claude-2.1',
  'claude-opus': 'claude-3-opus-20240229',
  'claude-sonnet': 'claude-3-sonnet-20240229',
  'claude-haiku': 'claude-3-haiku-20240307',
  'claude-sonnet-3.5': 'claude-3-5-sonnet-20240620',
  claude35sonnet: 'claude-3-5-sonnet-20240620',
  'claude3.5sonnet': 'claude-3-5-sonnet-20240620',
};

/** Resolve a SWE-agent model name (`gpt4`, `azure:gpt4`, `claude-sonnet-3.5`) to the API model id. */
export function resolveSweAgentModel(name: string): string {
  const trimmed = name.trim();
  const colon = trimmed.indexOf(':');
  const bare = colon >= 0 && /^(azure|bedrock|ollama)$/.test(trimmed.slice(0, colon)) ? trimmed.slice(colon + 1) : trimmed;
  return SWE_AGENT_MODEL_SHORTCUTS[bare.toLowerCase()] ?? bare;
}

/** The run name: the file name without `.gz` and `.traj`. */
export function sweAgentRunName(path: string): string {
  return basename(path).replace(/\.gz$/i, '').replace(/\.traj$/i, '');
}

/**
 * Model named in a SWE-agent file name: run names start `<model>__<data>__<config>...`; test fixtures
 * prefix it (`gpt4_2024-04__...`, `commit0_claude35sonnet__...`). Undefined when no part names a model.
 */
export function sweAgentModelFromFileName(path: string): string | undefined {
  const stem = sweAgentRunName(path).toLowerCase();
  for (const part of stem.split(/__|_/)) {
    const shortcut = SWE_AGENT_MODEL_SHORTCUTS[part];
    if (shortcut !== undefined) return shortcut;
    if (/^(gpt-[0-9]|claude-[0-9a-z]|o[1-9]-|deepseek-)[\w.-]*$/.test(part)) return part;
  }
  return undefined;
}

/** Model names found for a run, by source. */
export interface ModelSources {
  /** Given by the caller: overrides every other source. */
  override?: string;
  /** From the trajectory's `replay_config` (1.x). */
  replayConfig?: string;
  /** From the `args.yaml` beside the trajectory (0.x). */
  sidecar?: string;
}

/**
 * The run's API model id: the override, else the replay_config, else the sidecar (each resolved as a
 * SWE-agent name), else the file name. A UserError when none names a model.
 */
export function chooseSweAgentModel(path: string, sources: ModelSources): string {
  const fromName = sweAgentModelFromFileName(path);
  const rawModel = sources.override ?? sources.replayConfig ?? sources.sidecar;
  const model = rawModel !== undefined ? resolveSweAgentModel(rawModel) : fromName;
  if (model === undefined) {
    throw new UserError({
      file: path,
      field: 'model',
      code: 'missing_model',
      message: 'names no model: the trajectory has no replay_config, no args.yaml was found beside it and the file name names none',
      hint: 'put the run\'s args.yaml beside the .traj with the same name stem (e.g. gpt4__task.args.yaml), or start the file name with the model (e.g. gpt4__…, claude35sonnet__…)',
    });
  }
  return model;
}
