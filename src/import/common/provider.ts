/** Provider id of a model name, for trajectories that record the model but not who served it. */
import { bareModelName } from '../../pricing/bareModelName.js';

/** Provider id from a model name: an explicit `provider/` prefix, else the model family. */
export function inferProvider(model: string): string | undefined {
  const lower = model.toLowerCase();
  const slash = lower.indexOf('/');
  if (slash > 0) {
    const prefix = lower.slice(0, slash);
    if (/^[a-z][a-z0-9_-]*$/.test(prefix)) return prefix;
  }
  const bare = bareModelName(model);
  if (/^claude/.test(bare)) return 'anthropic';
  if (/^(gpt|chatgpt|o[1-9](\b|-|$)|text-|davinci|codex)/.test(bare)) return 'openai';
  if (/^deepseek/.test(bare)) return 'deepseek';
  if (/^gemini/.test(bare)) return 'google';
  if (/^(mistral|codestral|magistral|devstral)/.test(bare)) return 'mistral';
  return undefined;
}
