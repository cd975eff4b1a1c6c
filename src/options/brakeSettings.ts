/**
 * Brake settings a caller writes for a run — brakeConfig's `settings`, runAgentLoop's `brakes`, a sub-agent's,
 * a curve's — held to every rule their flags are: what the brakes hold (rules.ts brakeIssues), then, once
 * every value is one of those, what a flag refuses beside (brakes/rules.ts flagRuleIssues: a budget or
 * timeout of 0, a mode without its brake, a skip limit without the skip action). Pure: no node:*.
 */
import { flagRuleIssues, type SettingsPlace } from '../brakes/rules.js';
import { isObject, type Issue } from './issues.js';
import { brakeIssues } from './rules.js';

export function brakeSettingIssues(issue: Issue, brakes: unknown, place: SettingsPlace): void {
  let found = 0;
  brakeIssues((...said) => void ((found += 1), issue(...said)), brakes, place.field);
  if (found === 0 && isObject(brakes)) flagRuleIssues(issue, brakes, place);
}
