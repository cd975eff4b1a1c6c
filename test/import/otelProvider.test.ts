import { describe, expect, it } from 'vitest';
import { providerId } from '../../src/import/otel/provider.js';

describe('OTel provider hint', () => {
  it('maps semconv names and the price table\'s own names and aliases', () => {
    expect(providerId('gcp.vertex_ai')).toBe('google');
    expect(providerId('aws.bedrock')).toBe('aws');
    expect(providerId('google-vertex')).toBe('google');
    expect(providerId('cerebras')).toBe('cerebras');
    expect(providerId('openai')).toBe('openai');
    expect(providerId('my-llm-gateway')).toBe('my-llm-gateway');
  });

  it('an OpenAI-compatible client on a known host: the host decides; an unknown host keeps the name', () => {
    expect(providerId('openai', 'api.cerebras.ai')).toBe('cerebras');
    expect(providerId('openai', 'api.z.ai')).toBe('zai');
    expect(providerId('openai', 'api.openai.com')).toBe('openai');
    expect(providerId('openai', 'localhost')).toBe('openai');
    expect(providerId('openai', 'not a host')).toBe('openai');
  });
});
