/**
 * The start keeps V8's young generation small (bin/loadCli.js: `replay scenarios/` faults fewer pages);
 * a command that goes on to make many short-lived objects that outlive a small young generation (batches
 * of synthetic recordings, each run's records, long runs' calls) lets it grow as V8 grows it by default,
 * so fewer of them are promoted and traced again by the old generation's collector.
 * LOOPCOST_YOUNG_GENERATION=small keeps it small throughout (to compare), =default leaves V8's default
 * throughout. `sweep` lets it grow before it starts its worker threads, which share the process's flags:
 * the build takes their code cache under the same (scripts/cli-code-cache.mjs).
 */
import { setFlagsFromString } from 'node:v8';

export function letYoungGenerationGrow(): void {
  if (process.env.LOOPCOST_YOUNG_GENERATION === 'small') return;
  setFlagsFromString('--semi-space-growth-factor=2');
}
