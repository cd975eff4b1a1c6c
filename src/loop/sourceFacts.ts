/**
 * What a StepSource states of itself (its fields, not its methods: whether it reads the tool counts, how long its
 * cache writes may last, whether its calls record a cache, whether its reasoning re-enters its prompts), gathered in one place: the session is told
 * them (run.ts sessionSetupOf, the tree engines), and a source that wraps another states the wrapped one's
 * (`{ ...sourceFacts(inner), next, … }`: loop/checkedRun.ts, scenario/fitFacts.ts, scenario/run.ts). A fact added
 * to StepSource is a type error here until it is gathered, so no wrapper can leave one behind.
 */
import type { SessionSetup, StepSource } from './types.js';

/** StepSource's fields: every key whose value is no function. */
export type SourceFactKey = { [K in keyof StepSource]-?: StepSource[K] extends ((...args: never[]) => unknown) | undefined ? never : K }[keyof StepSource];

/** Every fact of a source, each as it states it (undefined: left out, its default). */
export type SourceFacts = { readonly [K in SourceFactKey]: StepSource[K] };

/** `source`'s facts, each of them (a wrapper spreads them: `{ ...sourceFacts(source), next, exhaustedReason }`). */
export function sourceFacts(source: StepSource): SourceFacts {
  return { readsToolState: source.readsToolState, cacheWrites: source.cacheWrites, recordsCache: source.recordsCache, reasoningReenters: source.reasoningReenters };
}

/** What a session is told of its step source (SessionSetup): whether it reads the tool counts, how long its cache writes may last, whether its calls record a cache, whether its reasoning re-enters its prompts. */
export function sessionSetupOf(source: StepSource): SessionSetup {
  const facts = sourceFacts(source);
  return { sourceReadsToolState: facts.readsToolState !== false, cacheWrites: facts.cacheWrites, recordsCache: facts.recordsCache, reasoningReenters: facts.reasoningReenters };
}
