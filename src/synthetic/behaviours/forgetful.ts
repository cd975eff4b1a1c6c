/**
 * forgetful — needs an earlier observation to go on (the weekly-report agent that needs the git log for
 * every section). It reads it once; when a later step needs it and it has slid out of the context
 * window, it reads it again (the agent that re-read the log 20 times). So a small window raises its
 * steps and its repeated actions (every re-read is the same call), not only lowers its cost per call.
 * It has the observation only when the read brought it back: a read the duplicate-action guard skipped
 * (`--repeat-action skip`: a warning came back) or cut at max_tokens (no call ran) is no read, and it reads
 * again when it needs it. Not stuck: it gets there, later. Done at its answer.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { PromptView } from '../../kernel/context.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { drawCount, type DistributionSpec } from '../distributions.js';
import { STREAM } from '../random.js';
import { isStepVisible } from '../visibility.js';
import { ownTool, WRITE_TOOL } from './toolNames.js';

export interface ForgetfulParams {
  /** Work steps after the first read (the answer not included). */
  steps: DistributionSpec;
  /** Tokens of the observation it keeps needing. */
  observationTokens: DistributionSpec;
  /** Every how many work steps it needs the observation (1: every one). */
  needEvery?: number;
  tool?: string;
}

export class ForgetfulAgent extends SyntheticAgent {
  readonly behaviour = 'forgetful';
  private readonly workSteps: number;
  private readonly observationTokens: number;
  /** History position of the latest copy of the observation; -1 when the context holds none. */
  private observedAt = -1;
  /** The first read was made. */
  private readOnce = false;
  /** The last response was a read (its result, if it came back, is the observation). */
  private readLast = false;
  private work = 0;
  private rereads = 0;

  constructor(env: AgentEnv, private readonly params: ForgetfulParams) {
    super(env);
    const plan = this.planStream();
    this.workSteps = drawCount(params.steps, plan);
    this.observationTokens = drawCount(params.observationTokens, plan);
  }

  protected act(view: PromptView, state: Readonly<BrakeState>): CallRecord {
    const read = { name: ownTool(this.behaviour, this.params.tool), arguments: { what: 'the observation' }, resultTokens: this.observationTokens };
    // What came back of the read is what the context holds: a skip warning, or nothing (cut), is no observation.
    if (this.readLast && !this.lastResultsArrived()) this.observedAt = -1;
    this.readLast = false;
    if (!this.readOnce) {
      this.readOnce = true;
      return this.reading(view, this.toolStep(this.stream(STREAM.action, 0), read));
    }
    const k = this.work + 1;
    const needs = k <= this.workSteps && k % (this.params.needEvery ?? 1) === 0;
    if (needs && !isStepVisible(view, this.observedAt)) return this.reading(view, this.toolStep(this.stream(STREAM.extra, ++this.rereads), read));
    this.work = k;
    const rng = this.stream(STREAM.action, k);
    if (k > this.workSteps) {
      this.markDone(this.nextStep(state));
      return this.answer(rng);
    }
    return this.toolStep(rng, { name: WRITE_TOOL, arguments: { section: k } });
  }

  /** A read sent with the prompt `view`: its step, at the end of the history, holds the observation once it comes back. */
  private reading(view: PromptView, step: CallRecord): CallRecord {
    this.observedAt = view.historySteps;
    this.readLast = true;
    return step;
  }
}
