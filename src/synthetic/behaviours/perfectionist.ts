/**
 * perfectionist — the recursive-verification loop: search, have the result judged ("needs more
 * sources"), search again, never satisfied on its own (the research agent that ran for two hours).
 * Every judge call differs (it is shown the sources found so far: a search the duplicate-action guard
 * skipped, or cut at max_tokens, found none, so the judge is shown the same sources again); a search repeats the agent's first
 * query verbatim with probability `repeatQuery`, otherwise it is a new phrasing. So repeat detection
 * catches it only when searches repeat: with repeatQuery 1 the 4th identical search meets a limit of 3.
 * The sources after `enoughAfter` searches were enough: the agent is stuck from the next search on. It
 * never answers, so the task is never done.
 */
import type { BrakeState } from '../../brakes/state.js';
import type { CallRecord } from '../../trace/types.js';
import { SyntheticAgent, type AgentEnv } from '../agent.js';
import { STREAM } from '../random.js';
import { JUDGE_TOOL, ownTool } from './toolNames.js';

export interface PerfectionistParams {
  /** Probability that a search after the first repeats the first query verbatim. */
  repeatQuery: number;
  /** Searches whose sources were already enough (default 1). */
  enoughAfter?: number;
  topic?: string;
  /** The search tool's name (default `web_search`); the judge stays `judge_sources`. */
  tool?: string;
}

export class PerfectionistAgent extends SyntheticAgent {
  readonly behaviour = 'perfectionist';
  private index = 0;
  private searches = 0;
  /** Searches whose results came back (lastResultsArrived): the sources the judge is shown. */
  private found = 0;
  private searchedLast = false;

  constructor(env: AgentEnv, private readonly params: PerfectionistParams) {
    super(env);
  }

  protected act(_view: unknown, state: Readonly<BrakeState>): CallRecord {
    if (this.searchedLast && this.lastResultsArrived()) this.found += 1;
    this.searchedLast = false;
    const k = ++this.index;
    const rng = this.stream(STREAM.action, k);
    const topic = this.params.topic ?? 'the claim';
    if (k % 2 === 0) {
      return this.toolStep(rng, { name: JUDGE_TOOL, arguments: { claim: topic, sourcesSoFar: this.found } });
    }
    this.searches += 1;
    this.searchedLast = true;
    if (this.searches > (this.params.enoughAfter ?? 1)) this.markStuck(this.nextStep(state));
    const repeat = this.searches > 1 && rng.chance(this.params.repeatQuery);
    const query = repeat ? `sources for ${topic}` : this.searches === 1 ? `sources for ${topic}` : `sources for ${topic}, phrasing ${this.searches}`;
    return this.toolStep(rng, { name: ownTool(this.behaviour, this.params.tool), arguments: { query } });
  }
}
