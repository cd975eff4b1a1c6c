/**
 * The importer of each format and what every import goes through: the importer's errors placed in the
 * input, its runs held to the rules every run obeys (src/trace/rules.ts). Importers are loaded when a file
 * of their format is read (`loadImporter`), so a command reading native traces never loads the YAML
 * parser, the OpenTelemetry names or the HTTP readers; `importText.ts` is the synchronous API over the
 * same importers, loaded up front.
 */
import { isStackOverflow } from '../io/yamlErrors.js';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MAX_REPORTED_ISSUES, placeIssues, UserError, type InputIssue } from '../errors.js';
import { MAX_NESTING_DEPTH } from '../io/limits.js';
import { STDIN_LABEL } from '../io/openInput.js';
import { readSmallTextFileSync } from '../io/readInput.js';
import { traceRuleIssues } from '../trace/rules.js';
import { endRunsAtRefusals } from './common/contextRefusal.js';
import type { Trace } from '../trace/types.js';
import { detectFormat, type TraceFormat } from './formats.js';
import type { SweAgentImportOptions } from './sweAgent/readTrajectory.js';
import { SIDECAR_HINT } from './sweAgent/sidecarHint.js';
import { unsignZeros } from '../trace/unsignZeros.js';

/** Reads a whole document of one format into runs (unchecked: see `importWith`). */
export type Importer = (text: string, path: string) => Trace[];

/** The importer of `format`, loaded on first use (the module cache keeps it). */
export async function loadImporter(format: TraceFormat): Promise<Importer> {
  switch (format) {
    case 'native':
      return (await import('../trace/parseNative.js')).parseNativeTraces;
    case 'mini-swe-agent':
      return (await import('./miniSweAgent.js')).importMiniSweAgent;
    case 'swe-agent':
      return withSidecar((await import('./sweAgent.js')).importSweAgent);
    case 'cassette':
      return (await import('./http/cassette.js')).importCassette;
    case 'exchanges':
      return (await import('./http/exchanges.js')).importExchangesJsonl;
    case 'otlp':
      return (await import('./otel.js')).importOtlpJson;
    case 'claude-code':
      return (await import('./claudeCode.js')).importClaudeCodeText;
    case 'codex':
      return (await import('./codex.js')).importCodexText;
  }
}

/**
 * The runs of a document, read by the importer of its format (detected from the content unless given),
 * held to the rules every run obeys; an issue an importer could not place in a file is placed in this one.
 */
export function importWith(importerOf: (format: TraceFormat) => Importer, text: string, path: string, format?: TraceFormat): Trace[] {
  let traces: Trace[];
  try {
    traces = importerOf(format ?? detectFormat(text, path))(text, path);
  } catch (error) {
    throw placedError(error, path);
  }
  return handedOver(traces, path);
}

/**
 * The runs an importer read from `path`, held to the rules (`ruleChecked`). An input of no run (a Claude
 * Code transcript or a Codex rollout that records no model call) is refused, as a native file of none is
 * ("holds no trace"): every command then says so, naming the file, instead of reporting 0 runs at $0 (one
 * a directory's walk or a glob brought in is left out instead, unless nothing else is: src/import/inputSet.ts).
 */
export function handedOver(traces: Trace[], path: string): Trace[] {
  if (traces.length === 0) throw noModelCall(path);
  return ruleChecked(traces);
}

/** The refusal of an input that read cleanly but records no model call (`why`: what it holds instead). */
export function noModelCall(path: string, why = ''): UserError {
  return new UserError({
    file: path,
    code: 'no_runs',
    message: noModelCallMessage(why),
    hint: 'name a log that records model calls (a session with assistant replies, a rollout with token counts)',
  });
}

function noModelCallMessage(why: string): string {
  return `holds no model call${why}: no run to read (a trace file of no runs is refused when read)`;
}

/**
 * Whether `issues` are only noModelCall's refusal of `file`, with nothing else to say (no response on lines
 * loopcost does not read): a summary-only or empty session, not a damaged one. A directory's walk leaves
 * such a file out (src/import/inputSet.ts); the issues may have crossed a thread, so they are compared.
 */
export function holdsNoModelCall(issues: readonly InputIssue[], file: string): boolean {
  const issue = issues.length === 1 ? issues[0]! : undefined;
  return issue !== undefined && issue.file === file && issue.code === 'no_runs' && issue.message === noModelCallMessage('');
}

/** SWE-agent's importer given the run's `*.args.yaml` beside the trace, when there is one. */
export function withSidecar(importSweAgent: (text: string, path: string, options: SweAgentImportOptions) => Trace[]): Importer {
  return (text, path) => importSweAgent(text, path, sweAgentSidecar(path) ?? {});
}

/** The SWE-agent run's `*.args.yaml` beside it: the longest such file whose name prefixes the trace's. */
function sweAgentSidecar(path: string): { sidecarArgsYaml: string; sidecarPath: string } | undefined {
  if (path === STDIN_LABEL) return undefined;
  const dir = dirname(path);
  const name = basename(path).replace(/\.gz$/, '').replace(/\.traj$/, '');
  if (!existsSync(dir)) return undefined;
  const candidates = readdirSync(dir)
    .filter((file) => file.endsWith('.args.yaml') && name.startsWith(file.slice(0, -'.args.yaml'.length)))
    .sort((a, b) => b.length - a.length);
  if (!candidates[0]) return undefined;
  const sidecarPath = join(dir, candidates[0]);
  return { sidecarArgsYaml: readSidecarText(sidecarPath), sidecarPath };
}

/** The args.yaml's text; one that is no text (binary, not UTF-8) is said to be no run configuration, not no trace. */
function readSidecarText(sidecarPath: string): string {
  try {
    return readSmallTextFileSync(sidecarPath);
  } catch (error) {
    const issue = error instanceof UserError && error.issues.length === 1 ? error.issues[0]! : undefined;
    // UTF-16 text keeps its own words (how to convert it); a binary file or bytes of no encoding are no settings file.
    if (issue?.code !== 'binary' && !(issue?.code === 'bad_encoding' && !/UTF-(16|32)/.test(issue.message))) throw error;
    const what = issue.code === 'binary' ? 'is a binary file' : 'is not UTF-8 text';
    throw new UserError({ ...issue, message: `${what}, not the run configuration SWE-agent writes beside the trajectory`, hint: SIDECAR_HINT });
  }
}

/** An importer's error as the reader reports it: a stack overflow is too deep; an issue without a file is the input's. */
export function placedError(error: unknown, path: string): unknown {
  if (isStackOverflow(error)) return tooDeep(path);
  return placeIssues(error, (issue) => ({ ...issue, file: path }));
}

/**
 * The runs, when every one obeys the rules of src/trace/rules.ts; else their issues, thrown together. A
 * refusal for length a run went on after is first made a plain failed call (endRunsAtRefusals).
 */
export function ruleChecked(traces: Trace[]): Trace[] {
  endRunsAtRefusals(traces);
  const issues = traces.flatMap(traceRuleIssues);
  if (issues.length > 0) throw new UserError(issues.slice(0, MAX_REPORTED_ISSUES));
  for (const trace of traces) {
    unsignZeros(trace.header);
    trace.calls.forEach((call) => unsignZeros(call));
    unsignZeros(trace.end);
  }
  return traces;
}


/**
 * The last guard of the depth limit: a reader that walks a value recursively (a YAML composer) ran out
 * of stack on a document nested past MAX_NESTING_DEPTH, before its own check could name the place.
 */
function tooDeep(path: string): UserError {
  return new UserError({ file: path, code: 'too_deep', message: `nests deeper than ${MAX_NESTING_DEPTH} levels of arrays, objects or mappings`, hint: 'the file looks corrupted or made up: export it again' });
}
