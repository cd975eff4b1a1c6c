/** Every behaviour by name, with its parameters: what a population entry holds. */
import type { AgentEnv, BehaviourKind, SyntheticAgent } from '../agent.js';
import { AskerAgent, type AskerParams } from './asker.js';
import { BacktrackerAgent, type BacktrackerParams } from './backtracker.js';
import { ForgetfulAgent, type ForgetfulParams } from './forgetful.js';
import { HealthyAgent, type HealthyParams } from './healthy.js';
import { PerfectionistAgent, type PerfectionistParams } from './perfectionist.js';
import { RepeaterAgent, type RepeaterParams } from './repeater.js';
import { RetrierAgent, type RetrierParams } from './retrier.js';
import { SloppyAgent, type SloppyParams } from './sloppy.js';

export type BehaviourParams =
  | ({ behaviour: 'healthy' } & HealthyParams)
  | ({ behaviour: 'perfectionist' } & PerfectionistParams)
  | ({ behaviour: 'repeater' } & RepeaterParams)
  | ({ behaviour: 'retrier' } & RetrierParams)
  | ({ behaviour: 'forgetful' } & ForgetfulParams)
  | ({ behaviour: 'asker' } & AskerParams)
  | ({ behaviour: 'backtracker' } & BacktrackerParams)
  | ({ behaviour: 'sloppy' } & SloppyParams);

export function createAgent(params: BehaviourParams, env: AgentEnv): SyntheticAgent {
  switch (params.behaviour) {
    case 'healthy':
      return new HealthyAgent(env, params);
    case 'perfectionist':
      return new PerfectionistAgent(env, params);
    case 'repeater':
      return new RepeaterAgent(env, params);
    case 'retrier':
      return new RetrierAgent(env, params);
    case 'forgetful':
      return new ForgetfulAgent(env, params);
    case 'asker':
      return new AskerAgent(env, params);
    case 'backtracker':
      return new BacktrackerAgent(env, params);
    case 'sloppy':
      return new SloppyAgent(env, params);
  }
}

export type { BehaviourKind };
export type { AskerParams, BacktrackerParams, ForgetfulParams, HealthyParams, PerfectionistParams, RepeaterParams, RetrierParams, SloppyParams };
