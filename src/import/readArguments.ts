/**
 * The arguments of the trace readers (loadTraceFile, streamTraceFile), checked once per input before it is
 * opened: a path that is no text, or options that are no object, or limits that are no sizes, is one
 * UserError naming the argument (`<streamTraceFile arguments>` field 'options.limits.maxLineBytes'), never a
 * TypeError from deep inside, and a misspelt limit is not silently the default. Keys of `options` beyond
 * ReadOptions' are let through: the input set passes its own (skipBad…) along. Pure: no node:*.
 */
import { DEFAULT_READ_LIMITS } from '../io/limits.js';
import { checkArguments, functionIssue, objectArgumentIssue, stringIssue } from '../options/arguments.js';
import { countFromZeroIssue, objectIssue, unknownKeyIssues, type Issue } from '../options/rules.js';

const PATH_HINT = "the trace file's path, e.g. 'runs/run.jsonl' (a .gz too), or '-' for standard input";
const RANGE_HINT = '{ from, to }: byte offsets of a plain native file, from ≤ to; or leave it out';
const OPTIONS_HINT = '{ limits: { maxInputBytes, maxLineBytes, pipeWaitMs } }, or leave it out for the defaults';

/** `path` and `options` of a reader of one input (`entry`: its name, as the refusal says it). */
export function requireReadArguments(entry: string, path: unknown, options: unknown): void {
  checkArguments(entry, (issue) => {
    stringIssue(issue, path, { field: 'path', hint: PATH_HINT });
    if (objectArgumentIssue(issue, options, { field: 'options', hint: OPTIONS_HINT, optional: true })) readOptionIssues(issue, options);
  });
}

function readOptionIssues(issue: Issue, options: Record<string, unknown>): void {
  const { limits, cache, range, headerRead } = options;
  if (objectIssue(issue, 'options.limits', limits, OPTIONS_HINT)) {
    unknownKeyIssues(issue, 'options.limits', limits, Object.keys(DEFAULT_READ_LIMITS), 'limit');
    countFromZeroIssue(issue, 'options.limits.maxInputBytes', limits['maxInputBytes'], 'the most bytes one input may hold, e.g. 512 * 1024 * 1024; leave it out for 4096 MB');
    countFromZeroIssue(issue, 'options.limits.maxLineBytes', limits['maxLineBytes'], 'the most bytes one record may hold, e.g. 512 * 1024 * 1024; leave it out for 128 MB');
    countFromZeroIssue(issue, 'options.limits.pipeWaitMs', limits['pipeWaitMs'], 'milliseconds a pipe may stay silent, e.g. 10000 (the default)');
  }
  if (objectIssue(issue, 'options.cache', cache, 'a RunsCache (src/cache/traceCache.ts), or leave it out')) {
    functionIssue(issue, cache['runsOf'], { field: 'options.cache.runsOf', hint: 'a RunsCache has runsOf(path, settings, read)' });
  }
  if (objectIssue(issue, 'options.range', range, RANGE_HINT)) {
    for (const end of ['from', 'to'] as const) {
      if (range[end] === undefined) issue(`options.range.${end}`, 'missing_field', 'is missing', RANGE_HINT);
      else countFromZeroIssue(issue, `options.range.${end}`, range[end], RANGE_HINT);
    }
  }
  functionIssue(issue, headerRead, { field: 'options.headerRead', hint: '(header) => …, told each header line read; or leave it out', optional: true });
}
