/**
 * The model that served the calls, when the responses name another than the one the run is priced as.
 * mini-swe-agent prices every call with its configured model (`litellm.cost_calculator.completion_cost(
 * response, model=config.model_name)`), whatever `response.model` says: a provider may serve an alias by a
 * newer model (mini-swe-agent 2.3.0's example astropy__astropy-12907: `deepseek/deepseek-chat` configured,
 * every response `deepseek-v4-flash`). loopcost prices the run as configured too, as the recorded cost was
 * computed, and says so in a note.
 */
import { counted } from '../../plural.js';
import { bareModelName } from '../../pricing/bareModelName.js';

/** A dated snapshot's suffix (`-2024-08-06`, `-20250514`, `-0613`, Vertex's `@20250514`). */
const SNAPSHOT_SUFFIX = /^[-@](\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/;

/** The served name is the priced one, routed or not, or a dated snapshot of it (`gpt-5` served as `gpt-5-2025-08-07`). */
export function servesPricedModel(served: string, priced: string): boolean {
  const [bare, base] = [bareModelName(served), bareModelName(priced)];
  return bare === base || (bare.startsWith(base) && SNAPSHOT_SUFFIX.test(bare.slice(base.length)));
}

/** The run's note when responses name a model other than `model` (counts by `servedModels`); undefined when none does. */
export function servedModelNote(run: { model: string; modelConfigured: boolean; servedModels: ReadonlyMap<string, number>; calls: readonly unknown[] }): string | undefined {
  const others = [...run.servedModels].filter(([served]) => !servesPricedModel(served, run.model));
  if (others.length === 0) return undefined;
  const calls = others.reduce((sum, [, count]) => sum + count, 0);
  const names = others.length === 1 ? others[0]![0] : others.map(([served, count]) => `${served} (${counted(count, 'call')})`).join(', ');
  const priced = run.modelConfigured ? `the configured ${run.model}` : `${run.model}, the first response's`;
  const why = run.modelConfigured ? ', the model mini-swe-agent computed the recorded cost (extra.cost) with' : '';
  const [verb, them] = calls === 1 ? ['names', 'it'] : ['name', 'them'];
  return `${calls} of ${counted(run.calls.length, 'call')} ${verb} ${names} as the model that served ${them} (extra.response.model), not ${priced}: the run is priced as ${run.model}${why}`;
}
