/**
 * The real case the past_context_window tests of compare and contexts read: two shared mini-swe-agent runs at
 * DeepSeek's prices of 2025-08-01, whose table gives deepseek-chat a 64,000-token window. sqlfluff-1517's
 * largest prompt, 68,339 tokens, passes 64,000 − 4,096; sqlfluff-2419's prompts stay within it.
 */
import { warningsOf, type Warning } from './jsonWarnings.js';

const CHAT = '../shared/traces/mini-swe-agent/deepseek_chat_dev';
/** sqlfluff-1517 (past the window), then sqlfluff-2419 (within it). */
export const PAIR = [`${CHAT}/sqlfluff__sqlfluff-1517.traj.json.gz`, `${CHAT}/sqlfluff__sqlfluff-2419.traj.json.gz`];
/** The day whose prices give deepseek-chat its 64,000-token window. */
export const DATED = ['--prices-as-of', '2025-08-01'];

/** The past_context_window warnings of `loopcost ARGV --format json`, which must exit 0. */
export async function pastWindowOf(...argv: string[]): Promise<Warning[]> {
  return (await warningsOf(...argv)).filter((w) => w.code === 'past_context_window');
}
