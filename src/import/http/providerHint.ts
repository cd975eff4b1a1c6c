/**
 * The provider hint of an HTTP exchange, for price look-up. The API a request speaks is read from its path
 * and body (detect.ts), never from its host; the host only says who served it:
 *   1. a host @pydantic/genai-prices knows (its providers' `api_pattern`, e.g. api.cerebras.ai → `cerebras`,
 *      router.huggingface.co/together → `huggingface_together`), so ids follow the price table;
 *   2. a few hosts it does not list but whose provider it does (AWS's OpenAI-compatible bedrock-mantle);
 *   3. a gateway that names the upstream provider in its first path segment
 *      (`http://localhost:8080/anthropic/v1/messages` → `anthropic`);
 *   4. else the host name itself (`ollama.com`, `localhost`, a company gateway), kept as recorded.
 */
import { bundledProviders } from '../../pricing/genaiData.js';
import { providerByApiUrl, providerById } from '../../pricing/genaiMatch.js';

export interface ProviderHint {
  provider: string;
  /** How it was found; `host` means no provider is known for the host (the name is the host). */
  via: 'price-table' | 'gateway-path' | 'host';
}

const EXTRA_HOSTS: { pattern: RegExp; provider: string }[] = [{ pattern: /^bedrock-mantle\.[a-z0-9-]+\.api\.aws$/, provider: 'aws' }];

/** Path segments that are API plumbing, never a provider name. */
const NOT_A_PROVIDER = /^(v\d+\w*|api|compatibility|inference|serving-endpoints|deployments)$/i;

export function providerHint(url: URL): ProviderHint {
  const host = url.hostname.toLowerCase();
  const known = providerByApiUrl(bundledProviders, `${url.protocol}//${host}${url.pathname}`);
  if (known !== undefined) return { provider: known.id, via: 'price-table' };
  const extra = EXTRA_HOSTS.find((h) => h.pattern.test(host));
  if (extra !== undefined) return { provider: extra.provider, via: 'price-table' };
  const segment = url.pathname.split('/').find((s) => s !== '');
  if (segment !== undefined && segment !== '' && !NOT_A_PROVIDER.test(segment)) {
    const byName = providerById(bundledProviders, segment);
    if (byName !== undefined) return { provider: byName.id, via: 'gateway-path' };
  }
  return { provider: host, via: 'host' };
}
