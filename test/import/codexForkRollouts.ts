/**
 * Codex rollouts written here from openai/codex's shapes for forks (test/import/codexForks.test.ts): a
 * main thread of three shell calls and a spawn; a child thread that is spawned by it or forked from it.
 * A forked child's rollout is written as Codex writes one (src/import/codex/forkCopy.ts): its own
 * session_meta (`forked_from_id` for `codex fork` and forked sub-agents), the parent's lines as they
 * were — its session_meta, turn contexts, items and token_counts — stamped at the fork instant (or with
 * their old times kept), then the child's own turn, its running total going on from the copy's last.
 */
export const MAIN = '019a0000-0000-7000-8000-0000000000a1';
export const CHILD = '019a0000-0000-7000-8000-0000000000b2';

type Line = { timestamp: string; type: string; payload: Record<string, unknown> };

class Rollout {
  readonly lines: Line[] = [];
  private readonly total = [0, 0, 0];
  constructor(public ms: number) {}

  add(type: string, payload: Record<string, unknown>, stepMs: number): void {
    this.ms += stepMs;
    this.lines.push({ timestamp: new Date(this.ms).toISOString(), type, payload });
  }

  continueFrom(lines: Line[]): void {
    const last = lines.filter((l) => l.payload.type === 'token_count').pop()?.payload.info as { total_token_usage: Record<string, number> } | undefined;
    if (last) [this.total[0], this.total[1], this.total[2]] = [last.total_token_usage.input_tokens!, last.total_token_usage.cached_input_tokens!, last.total_token_usage.output_tokens!];
  }

  count(input: number, cached: number, output: number): void {
    const t = this.total;
    [t[0], t[1], t[2]] = [t[0]! + input, t[1]! + cached, t[2]! + output];
    const usage = (i: number, c: number, o: number) => ({ input_tokens: i, cached_input_tokens: c, output_tokens: o, reasoning_output_tokens: 0, total_tokens: i + o });
    this.add('event_msg', { type: 'token_count', info: { total_token_usage: usage(t[0]!, t[1]!, t[2]!), last_token_usage: usage(input, cached, output), model_context_window: 272000 } }, 20);
  }

  shell(callId: string, command: string, stepMs = 2000): void {
    this.add('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }), call_id: callId }, stepMs);
  }

  output(callId: string, output: string): void {
    this.add('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output, metadata: { exit_code: 0, duration_seconds: 0.1 } }) }, 300);
  }

  text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  }
}

export interface RolloutOptions {
  /** turn_context's `service_tier`. */
  serviceTier?: string;
  /** Extra lines after the user message (e.g. a thread_settings_applied event). */
  afterPrompt?: Line['payload'][];
  /** A web_search_call item in the first call. */
  webSearch?: boolean;
}

const meta = (thread: string, extra: Record<string, unknown> = {}) => ({ id: thread, timestamp: '2025-11-03T09:00:00.000Z', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.131.0', ...extra });
const turnContext = (serviceTier?: string) => ({ cwd: '/w', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, model: 'gpt-5', effort: 'medium', summary: 'auto', ...(serviceTier !== undefined ? { service_tier: serviceTier } : {}) });

/** The main thread: three shell calls, a spawn_agent call naming CHILD, a final answer. `copied` is its history at the spawn. */
export function mainRollout(options: RolloutOptions = {}): { rollout: Rollout; copied: Line[] } {
  const r = new Rollout(Date.UTC(2025, 10, 3, 9));
  r.add('session_meta', meta(MAIN), 0);
  r.add('turn_context', turnContext(options.serviceTier), 10);
  r.add('event_msg', { type: 'user_message', message: 'fix the parser', kind: 'plain' }, 10);
  for (const payload of options.afterPrompt ?? []) r.add('event_msg', payload, 10);
  for (let i = 0; i < 3; i++) {
    if (i === 0 && options.webSearch) r.add('response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'parser' } }, 1000);
    r.shell(`call_m${i}`, `pytest -q ${i}`);
    r.count(60000 + i * 1000, 55000 + i * 1000, 400);
    r.output(`call_m${i}`, 'ok');
  }
  r.add('response_item', { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ message: 'look into dates' }), call_id: 'call_spawn' }, 2000);
  r.count(64000, 62000, 300);
  const copied = [...r.lines];
  r.add('response_item', { type: 'function_call_output', call_id: 'call_spawn', output: JSON.stringify({ agent_id: CHILD }) }, 100);
  r.add('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }, 60000);
  r.count(66000, 64000, 200);
  return { rollout: r, copied };
}

export interface ChildOptions {
  /** The parent's lines the child's rollout opens with (none: a sub-agent that starts fresh). */
  copied?: Line[];
  /** session_meta's `forked_from_id` (`codex fork`, a forked sub-agent). */
  forkedFrom?: string;
  /** A spawned sub-agent's session_meta source (thread_spawn); false for a `codex fork`. */
  spawned?: boolean;
  /** Keep the copied lines' own times instead of stamping them at the fork instant. */
  keepTimes?: boolean;
  /** How long after the copy the child's own turn starts (ms). */
  promptAfterMs?: number;
  /** How long the child's first response takes after its prompt (ms). */
  firstResponseMs?: number;
}

/** The child thread: its session_meta, the copied history if any, then its own turn of two calls. */
export function childRollout(options: ChildOptions = {}): Rollout {
  const r = new Rollout(Date.UTC(2025, 10, 3, 9, 0, 20));
  const source = options.spawned === false ? {} : { source: { subagent: { thread_spawn: { parent_thread_id: MAIN, depth: 1, agent_nickname: 'Euclid', agent_role: 'explorer' } } } };
  r.add('session_meta', meta(CHILD, { ...source, ...(options.forkedFrom !== undefined ? { forked_from_id: options.forkedFrom } : {}) }), 0);
  const forkAt = new Date(r.ms).toISOString();
  for (const line of options.copied ?? []) r.lines.push(options.keepTimes ? { ...line } : { ...line, timestamp: forkAt });
  r.continueFrom(options.copied ?? []);
  r.add('turn_context', turnContext(), options.promptAfterMs ?? 5);
  r.add('event_msg', { type: 'user_message', message: 'look into dates', kind: 'plain' }, 5);
  r.shell('call_c0', 'rg week', options.firstResponseMs ?? 2000);
  r.count(8000, 0, 150);
  r.output('call_c0', 'src/dates.py:3');
  r.add('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'found it' }] }, 2000);
  r.count(8300, 7900, 80);
  return r;
}
