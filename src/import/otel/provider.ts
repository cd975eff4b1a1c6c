/** The provider id of a semconv provider name (gen_ai.provider.name / gen_ai.system), for price look-up. */
import {
  GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_INFERENCE,
  GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEN_AI,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI,
  GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI,
  GEN_AI_PROVIDER_NAME_VALUE_X_AI,
} from '@opentelemetry/semantic-conventions/incubating';
import { bundledProviders } from '../../pricing/genaiData.js';
import { providerById } from '../../pricing/genaiMatch.js';
import { providerHint } from '../http/providerHint.js';

/**
 * Semconv provider names → the provider ids the HTTP importers use (those of @pydantic/genai-prices);
 * names not listed (openai, anthropic, deepseek, groq, cohere, perplexity, ...) are the same in both.
 */
const PROVIDER_IDS: Record<string, string> = {
  [GEN_AI_PROVIDER_NAME_VALUE_AWS_BEDROCK]: 'aws',
  [GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_INFERENCE]: 'azure',
  [GEN_AI_PROVIDER_NAME_VALUE_AZURE_AI_OPENAI]: 'azure',
  [GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI]: 'google',
  [GEN_AI_PROVIDER_NAME_VALUE_GCP_GEN_AI]: 'google',
  [GEN_AI_PROVIDER_NAME_VALUE_GCP_VERTEX_AI]: 'google',
  [GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI]: 'mistral',
  [GEN_AI_PROVIDER_NAME_VALUE_X_AI]: 'x-ai',
};

/**
 * The provider id of a span: its provider name as the price table knows it (semconv names, then
 * genai-prices' own names and aliases such as `google-vertex` or `bedrock`, else the name as given).
 * An OpenAI-compatible client reports `openai` whoever serves it, so when the span's `server.address`
 * is a host the price table knows (api.cerebras.ai, router.huggingface.co, …), that host decides, as it
 * does for HTTP exchanges.
 */
export function providerId(providerName: string, serverAddress?: string): string {
  const named = PROVIDER_IDS[providerName] ?? providerById(bundledProviders, providerName)?.id ?? providerName;
  if (serverAddress === undefined || serverAddress.trim() === '') return named;
  let url: URL;
  try {
    url = new URL(`https://${serverAddress.trim()}/`);
  } catch {
    return named;
  }
  const byHost = providerHint(url);
  return byHost.via === 'price-table' ? byHost.provider : named;
}
