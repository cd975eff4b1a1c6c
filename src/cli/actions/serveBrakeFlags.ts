/**
 * `serve --max-cost 0.5` (any brake flag of replay) and `serve --model M`: serve answers every call the agent
 * under test makes and prices each session as its recording's model (the scenario's), so neither a brake nor a
 * repricing has anywhere to apply. The flags are taken (commands/serve.ts, hidden) only to be refused here, each
 * one given named with what does what it asks — the loop that calls serve brakes; replay reprices — rather than
 * left unknown to commander (`unknown option '--max-cost'`).
 */
import { UserError, type InputIssue } from '../../errors.js';
import { BRAKE_KEYS } from '../../flags/brakeKeys.js';

/** Each flag serve refuses, as `[flag name, option attribute]`: replay's brake flags, and --model. */
const REFUSED: readonly (readonly [string, string])[] = [...Object.entries(BRAKE_KEYS), ['model', 'model']];

const NO_BRAKES = "serve applies no brakes: it answers every call the agent under test makes, and the loop that calls it brakes (runAgentLoop's brakes, or your agent's own limits)";
const NO_REPRICING = "serve applies no repricing: each session is priced as its recording's model (a scenario file's, for its synthetic runs)";

/** The refusal of the brake and pricing flags given (`flags`: the command's; commander gives `true` for a flag without a value), or undefined. */
export function servePricingBrakeRefusal(flags: object): UserError | undefined {
  const opts = flags as Record<string, unknown>;
  const issues: InputIssue[] = REFUSED.filter(([, attribute]) => opts[attribute] !== undefined).map(([name, attribute]) => {
    const value = typeof opts[attribute] === 'string' ? (opts[attribute] as string) : name === 'model' ? 'MODEL' : 'VALUE';
    const replay = `loopcost replay RUN.jsonl --${name} ${value}`;
    return name === 'model'
      ? { file: '<command line>', field: '--model', code: 'flag_without_effect', message: NO_REPRICING, hint: `price what the agent recorded as another model with replay: ${replay}` }
      : { file: '<command line>', field: `--${name}`, code: 'flag_without_effect', message: NO_BRAKES, hint: `give the brake to that loop, or replay what it recorded under it: ${replay}` };
  });
  return issues.length === 0 ? undefined : new UserError(issues);
}
