/**
 * Which provider and model of the genai-prices data a name means, by the package's own rules (its
 * `calcPrice` and `findProvider`, @pydantic/genai-prices 0.1.8), over data handed in: the table reads the
 * data from a JSON copy made at build time (genaiData.ts) and so never loads the package's 800 KB module
 * at start-up. test/pricing/genaiMatch.test.ts holds these rules to the package's on every model it knows.
 */
import type { MatchLogic, ModelInfo, Provider } from '@pydantic/genai-prices';

/** A match clause (`equals`, `starts_with`, `ends_with`, `contains`, case-insensitive; `regex`; `or`, `and`). */
export function matches(clause: MatchLogic, text: string): boolean {
  if ('or' in clause) return clause.or.some((inner) => matches(inner, text));
  if ('and' in clause) return clause.and.every((inner) => matches(inner, text));
  if ('equals' in clause) return text.toLowerCase() === clause.equals.toLowerCase();
  if ('starts_with' in clause) return text.toLowerCase().startsWith(clause.starts_with.toLowerCase());
  if ('ends_with' in clause) return text.toLowerCase().endsWith(clause.ends_with.toLowerCase());
  if ('contains' in clause) return text.toLowerCase().includes(clause.contains.toLowerCase());
  if ('regex' in clause) return new RegExp(clause.regex).test(text);
  return false;
}

/** The provider an id names: its id (case-insensitive), else the first whose `provider_match` matches it. */
export function providerById(providers: readonly Provider[], providerId: string): Provider | undefined {
  const id = providerId.toLowerCase().trim();
  return providers.find((p) => p.id === id) ?? providers.find((p) => p.provider_match !== undefined && matches(p.provider_match, id));
}

/** The provider whose `api_pattern` matches the start of an API URL (the package's `findProvider({ providerApiUrl })`). */
export function providerByApiUrl(providers: readonly Provider[], apiUrl: string): Provider | undefined {
  return providers.find((p) => new RegExp(`^(?:${p.api_pattern})`).test(apiUrl));
}

/** The package's provider choice: by id when one is given (`litellm` falls through), else by the model name. */
function providerFor(providers: readonly Provider[], modelId: string, providerId: string | undefined): Provider | undefined {
  if (providerId) {
    const named = providerById(providers, providerId);
    if (named || providerId.toLowerCase() !== 'litellm') return named;
  }
  if (!modelId) return undefined;
  return providers.find((p) => p.model_match !== undefined && matches(p.model_match, modelId));
}

/** A model of the provider (or of its fallback providers, one level) whose `match` matches the name. */
function modelOf(provider: Provider, name: string, providers?: readonly Provider[]): ModelInfo | undefined {
  const own = provider.models.find((m) => matches(m.match, name));
  if (own || !provider.fallback_model_providers || !providers) return own;
  for (const id of provider.fallback_model_providers) {
    const fallback = providers.find((p) => p.id === id);
    const found = fallback ? modelOf(fallback, name) : undefined;
    if (found) return found;
  }
  return undefined;
}

const COMPACT_DATE = /(-)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=-|:|$)/g;

/** `-20240620` → `-2024-06-20` where it is a real day (the package's second try). */
function dashedDates(name: string): string {
  return name.replace(COMPACT_DATE, (whole: string, dash: string, year: string, month: string, day: string) => {
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    return date.getUTCFullYear() !== Number(year) || date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day) ? whole : `${dash}${year}-${month}-${day}`;
  });
}

/** What `calcPrice(usage, model, { providerId })` prices the name as, or undefined where it returns null. */
export function matchModel(providers: readonly Provider[], model: string, providerId?: string): { provider: Provider; model: ModelInfo } | undefined {
  let name = model.toLowerCase().trim();
  let hint = providerId;
  if (hint && hint.toLowerCase() === 'litellm' && name.includes('/')) {
    const slash = name.indexOf('/');
    const head = name.slice(0, slash);
    const rest = name.slice(slash + 1);
    if (head && rest && providerById(providers, head)) [hint, name] = [head, rest];
  }
  const provider = providerFor(providers, name, hint);
  if (!provider) return undefined;
  const dashed = dashedDates(name);
  const found = modelOf(provider, name, providers) ?? (dashed !== name ? modelOf(provider, dashed, providers) : undefined);
  return found ? { provider, model: found } : undefined;
}
