/**
 * A model priced by another provider than the one asked for. A run's `provider` (a trace's
 * `header.provider`, the `provider` of a table's resolve) whose entry in the bundled table does not price
 * the model falls back to a provider that does (genaiFind.ts findModel), as the CLI always priced such runs;
 * the pricing carries the fallback (ModelPricing `providerFallback`), so neither a library caller nor a
 * report's `prices.models` takes another provider's prices for the one asked without being told. Pure.
 */
import type { Provider } from '@pydantic/genai-prices';
import { shownName } from '../shownName.js';
import type { Match } from './genaiFind.js';
import { providerById } from './genaiMatch.js';
import type { ProviderFallback } from './types.js';

/** What the fallback is about: the provider asked for, the model as asked, the table's match, and the option that gives a price of one's own. */
export interface FallbackAsked {
  provider: string | undefined;
  requested: string;
  match: Match;
  overridesFile: string;
}

/** The fallback of a match, or undefined when the provider asked for prices it (or none was asked for). */
export function providerFallbackOf(providers: readonly Provider[], asked: FallbackAsked): ProviderFallback | undefined {
  const wanted = asked.provider?.trim();
  if (!wanted) return undefined;
  const named = providerById(providers, wanted);
  const { provider, model } = asked.match;
  if (named?.id === provider.id) return undefined;
  const requested = shownName(asked.requested.trim());
  const lacks = named === undefined ? `the price table knows no provider '${shownName(wanted)}'` : `the price table has no price of '${requested}' for provider ${named.id} (${named.name})`;
  return {
    asked: wanted,
    detail:
      `${lacks}: priced at ${provider.id} (${provider.name})'s price of ${model.id} instead; ` +
      `if ${shownName(wanted)} bills you another price, give it with ${asked.overridesFile} (an entry for '${shownName(`${wanted}/${asked.requested.trim()}`)}' with input_cost_per_token and output_cost_per_token)`,
  };
}
