/** The provider id of a semconv provider name (gen_ai.provider.name / gen_ai.system). */
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

export function providerId(providerName: string): string {
  return PROVIDER_IDS[providerName] ?? providerName;
}
