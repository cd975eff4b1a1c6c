/**
 * Which provider's model of the bundled table a name means (GenaiPriceTable.resolve), and when a name's
 * provider prefix forbids taking another provider's price. A prefix naming a provider the table knows
 * (`together_ai/…` is Together AI by the table's own `provider_match`; `bedrock/…` AWS Bedrock) is priced
 * by that provider's entry; when that provider does not price the model, no other provider's price is
 * taken in silence (Together's price is not Hyperbolic's): the name is refused, naming the providers that
 * do price it. A whole name the table lists as it is (`openai/gpt-oss-120b`, a model id of some providers)
 * is still found as listed.
 */
import type { MatchLogic, ModelInfo, Provider } from '@pydantic/genai-prices';
import { UserError } from '../errors.js';
import { maxOf } from '../metrics/extremes.js';
import { shownName } from '../shownName.js';
import { matches, matchModel, providerById } from './genaiMatch.js';
import { bareModelName } from './bareModelName.js';

export interface Match {
  provider: Provider;
  model: ModelInfo;
}

/** A model id of the providers (of one provider when `providerId` is given), case-insensitive. */
function byId(providers: readonly Provider[], modelName: string, providerId?: string): Match | undefined {
  const wanted = modelName.toLowerCase();
  for (const provider of providers) {
    if (providerId !== undefined && provider.id !== providerId) continue;
    const model = provider.models.find((m) => m.id.toLowerCase() === wanted);
    if (model) return { provider, model };
  }
  return undefined;
}

/**
 * The hinted provider's one model listed under an owner's prefix whose id, less that prefix, is the name:
 * Groq and OpenRouter list `openai/gpt-oss-120b`, so `gpt-oss-120b` under provider `groq` is Groq's model,
 * not OpenAI's own. Undefined when none is, or several are (`openai/x` and `azure/x`: the name does not say which).
 */
function byOwnerPrefixedId(providers: readonly Provider[], modelName: string, providerId: string): Match | undefined {
  const provider = providers.find((p) => p.id === providerId);
  const wanted = modelName.toLowerCase();
  const listed = provider?.models.filter((m) => m.id.includes('/') && bareModelName(m.id) === wanted) ?? [];
  return provider !== undefined && listed.length === 1 ? { provider, model: listed[0]! } : undefined;
}

/**
 * Splits `openai/gpt-4o` or `openai:gpt-4o` into a prefix and the rest. `providerId` is set when the
 * prefix names a provider genai-prices knows (its id or provider match, e.g. `bedrock` → `aws`). A `:`
 * only splits off a known provider, so `llama3:8b` stays whole.
 */
export function splitProviderPrefix(providers: readonly Provider[], name: string): { providerId: string | undefined; rest: string } | undefined {
  const slash = name.indexOf('/');
  const colon = name.indexOf(':');
  const useColon = colon > 0 && (slash < 0 || colon < slash);
  const at = useColon ? colon : slash;
  if (at <= 0 || at === name.length - 1) return undefined;
  const head = name.slice(0, at);
  const rest = name.slice(at + 1);
  const providerId = providerById(providers, head)?.id;
  if (useColon && providerId === undefined) return undefined;
  return { providerId, rest };
}

/**
 * The table's model for a name, case-insensitive, as the package matches. With a provider hint (the run's
 * `provider`): the name by the package's matching for that provider, its model ids, its one model listed
 * under an owner's prefix (byOwnerPrefixedId), the prefix's provider, then any provider (the pricing says
 * so: providerFallback.ts). Without one, a name whose prefix names a known provider: that provider's
 * model for the rest or the whole name, else the whole name as some provider lists it; never the rest
 * priced by another provider (undefined here; `prefixRefusal` says why). Any other name: the package's
 * matching, model ids, then the name without its prefix, in any provider.
 */
export function findModel(providers: readonly Provider[], name: string, providerHint: string | undefined): Match | undefined {
  if (name.length === 0) return undefined;
  const hint = providerHint ? providerById(providers, providerHint)?.id : undefined;
  const prefix = splitProviderPrefix(providers, name);
  const viaPackage = (modelName: string, providerId?: string): Match | undefined => matchModel(providers, modelName, providerId);
  const ofPrefix = (): Match | undefined => (prefix?.providerId ? viaPackage(prefix.rest, prefix.providerId) ?? byId(providers, prefix.rest, prefix.providerId) : undefined);
  const attempts: Array<() => Match | undefined> =
    hint === undefined && prefix?.providerId !== undefined
      ? [ofPrefix, () => viaPackage(name, prefix.providerId) ?? byId(providers, name, prefix.providerId), () => byId(providers, name)]
      : [
          () => viaPackage(name, hint),
          () => (hint ? byId(providers, name, hint) : undefined),
          () => (hint && !name.includes('/') ? byOwnerPrefixedId(providers, name, hint) : undefined),
          ofPrefix,
          () => (hint ? viaPackage(name) : undefined),
          () => byId(providers, name),
          () => (prefix ? viaPackage(prefix.rest) ?? byId(providers, prefix.rest) : undefined),
        ];
  for (const attempt of attempts) {
    const found = attempt();
    if (found) return found;
  }
  return undefined;
}

/**
 * Why a name whose prefix names a known provider is not priced (no provider hint given): that provider
 * does not price the model, and which providers do (their entries by the package's matching and by id).
 * Undefined when the name has no such prefix, or no provider prices the rest either (an unknown model).
 */
export function prefixRefusal(providers: readonly Provider[], name: string, options: { providerHint: string | undefined; overridesFile: string }): UserError | undefined {
  const { providerHint } = options;
  if (providerHint && providerById(providers, providerHint)) return undefined;
  const prefix = splitProviderPrefix(providers, name.trim());
  if (prefix?.providerId === undefined) return undefined;
  const pricedBy = providers.filter((p) => p.id !== prefix.providerId && (matchModel(providers, prefix.rest, p.id) ?? byId(providers, prefix.rest, p.id)) !== undefined);
  if (pricedBy.length === 0) return undefined;
  const named = providerById(providers, prefix.providerId)!;
  const others = pricedBy.slice(0, 5).map((p) => `${p.id}/${shownName(prefix.rest)}`);
  return new UserError({
    field: 'model',
    code: 'model_not_priced_by_provider',
    message: `'${shownName(name)}' names provider ${named.id} (${named.name}), which the price table does not price '${shownName(prefix.rest)}' for; other providers' prices are not taken for it`,
    hint: `give its price with ${options.overridesFile} (an entry for '${shownName(name)}' with input_cost_per_token and output_cost_per_token), or name the provider you are billed by: ${others.join(', ')}${pricedBy.length > others.length ? ` (${pricedBy.length} providers)` : ''}`,
  });
}

/** How a user names a provider the table knows by another id (the table's own provider_match takes it): `aws` is `bedrock`. */
const PROVIDER_WORDS: Readonly<Record<string, string>> = { aws: 'bedrock' };

/** The longest text of a clause that takes `text` (0: none does): how closely a model's rules name it. */
function matchedLength(clause: MatchLogic, text: string): number {
  if ('or' in clause) return maxOf(clause.or.map((inner) => matchedLength(inner, text)), 0);
  if ('and' in clause) return matches(clause, text) ? maxOf(clause.and.map((inner) => matchedLength(inner, text)), 0) : 0;
  if (!matches(clause, text)) return 0;
  const literal = 'equals' in clause ? clause.equals : 'starts_with' in clause ? clause.starts_with : 'ends_with' in clause ? clause.ends_with : 'contains' in clause ? clause.contains : '';
  return Math.max(1, literal.length);
}

/**
 * The providers whose own model rules take a name no look-up without a provider found (their rules are
 * read only for a run that names the provider: a Bedrock id such as `us.anthropic.claude-sonnet-4-5-…`),
 * each as a user would name it (`bedrock`), with its display name: those whose rule names it most
 * closely (Bedrock's `us.anthropic.claude-sonnet-4-5-20250929`, not Vertex's `claude-sonnet-4-5`), at most three.
 */
export function providersTaking(providers: readonly Provider[], name: string): Array<{ word: string; name: string }> {
  const taking: Array<{ provider: Provider; length: number }> = [];
  for (const provider of providers) {
    const found = matchModel(providers, name, provider.id);
    if (found?.provider.id === provider.id) taking.push({ provider, length: matchedLength(found.model.match, name.toLowerCase()) });
  }
  const closest = maxOf(taking.map((t) => t.length), 0);
  return taking
    .filter((t) => t.length === closest)
    .slice(0, 3)
    .map(({ provider }) => {
      const word = PROVIDER_WORDS[provider.id];
      return { word: word !== undefined && providerById(providers, word)?.id === provider.id ? word : provider.id, name: provider.name };
    });
}
