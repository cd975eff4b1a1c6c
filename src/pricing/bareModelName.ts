/** A model's name without its route, in lower case: `DeepSeek/deepseek-chat` → `deepseek-chat`, `openrouter/anthropic/claude-x` → `claude-x`. Pure. */
export function bareModelName(model: string): string {
  const lower = model.toLowerCase();
  return lower.slice(lower.lastIndexOf('/') + 1);
}
