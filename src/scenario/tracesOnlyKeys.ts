/**
 * The scenario keys that do nothing for recorded runs: in a scenario whose runs are its `traces:` alone (no
 * `population:`), each is refused (exit 2: file, line, field, why, and what to do), all of them in one error,
 * by every command that reads scenario files (the schema's own check: schema.ts). Before, `runs: 5` or
 * `hardCapSteps: 3` there was read and silently ignored, and a CI gate held to it held to nothing.
 * Kept: `model` (re-prices the recorded runs as `--model` does: src/check/fileModel.ts), `latency` (the
 * latency model fills the calls and tool calls recorded without one, which a `timeout` brake reads), and
 * `brakes`, `context`, `expect`, `name`, `description`. Pure: no node:*.
 */

/** Why a key does nothing for recorded runs, and (where one does) what acts on them instead. */
interface NoEffect {
  why: string;
  instead?: string;
}

const REMOVE = 'remove it, or move it to a scenario with a synthetic `population:` (whose runs it shapes)';

export const NO_EFFECT_ON_TRACES: Readonly<Record<string, NoEffect>> = {
  provider: {
    why: 'it names the provider a synthetic population’s model is priced under; recorded runs are priced as each trace’s header names its model, or as `model:` re-prices them (by model name, as --model does)',
    instead: 'to price the recorded runs as another model, set `model:` or pass --model',
  },
  systemTokens: { why: 'recorded runs carry their own prompt sizes (each trace’s header and calls)' },
  goalTokens: { why: 'recorded runs carry their own prompt sizes (each trace’s header and calls)' },
  promptOverhead: { why: 'recorded runs carry their own prompt sizes (each trace’s header and calls)' },
  cacheHitShare: {
    why: 'recorded runs read the cache as recorded, or as `context.cache` / --cache replays them',
    instead: 'to replay the recorded runs with the cache on or off, set `context: { cache: on }` or pass --cache',
  },
  runs: {
    why: 'every run the traces hold is replayed once, whatever it says',
    instead: 'to check fewer recorded runs, name fewer trace files under `traces:`',
  },
  seed: { why: 'recorded runs draw nothing: they replay as recorded' },
  hardCapSteps: {
    why: 'recorded runs end where their recordings end',
    instead: 'to stop the recorded runs after N steps, set `brakes: { max-steps: N }` or pass --max-steps N',
  },
  runsPerDay: {
    why: 'only `loopcost project` reads it, of a synthetic population (no command projects a scenario’s traces:)',
    instead: 'to project the recorded runs, give their trace files to `loopcost project` with --runs-per-day N',
  },
};

/** A custom zod issue of one such key: schema.ts adds it; issueWords.ts reports its code, message and hint. */
export type NoEffectIssue = {
  code: 'custom';
  path: [string];
  params: { code: 'no_effect_on_traces'; hint: string };
  message: string;
};

/** A scenario's runs are its recordings alone: `traces:` and no `population:`. */
export function isTracesOnly(scenario: { traces?: unknown; population?: unknown }): boolean {
  return scenario.traces !== undefined && scenario.population === undefined;
}

/** One issue per key of a traces-only scenario that does nothing for its recorded runs; none for another scenario. */
export function noEffectOnTraces(scenario: Readonly<Record<string, unknown>>): NoEffectIssue[] {
  if (!isTracesOnly(scenario)) return [];
  return Object.keys(NO_EFFECT_ON_TRACES)
    .filter((key) => scenario[key] !== undefined)
    .map((key) => {
      const { why, instead } = NO_EFFECT_ON_TRACES[key]!;
      return {
        code: 'custom',
        path: [key],
        params: { code: 'no_effect_on_traces', hint: `${REMOVE}${instead === undefined ? '' : `; ${instead}`}; see docs/check.md` },
        message: `does nothing for recorded runs (traces:): ${why}`,
      };
    });
}
