/**
 * Fixtures that read alone (no file beside them needed: no sub-agent transcript, no companion), one per reader
 * format: what the cache tests put through every cache.
 */
export const SELF_CONTAINED_FIXTURES = [
  'scenarios/long-exploration.jsonl',
  'test/fixtures/otel/two-traces.json',
  'test/fixtures/http/anthropic-cache.jsonl',
  'test/fixtures/cassettes/openai-chat-tool-retry.yaml',
  'test/fixtures/codex/rollout-2025-09-20T10-00-00-0199b4a2-6c1e-7c52-9d6e-2f3a4b5c6d7e.jsonl',
  'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json',
];
