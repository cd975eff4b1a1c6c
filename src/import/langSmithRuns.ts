/**
 * A LangSmith runs export: run records (`{id, name, run_type, trace_id, parent_run_id, inputs, outputs,
 * extra, prompt_tokens, …}`), one a line, one document, or as the runs API answers them (`{runs: […]}`).
 * Recognised only to be refused by name with the way to a recording loopcost reads (formats.ts
 * unknownFormat), as the OpenAI Agents SDK's trace export is (agentsSdkTrace.ts). No importer is written
 * for it: an `llm` run holds LangChain's serialised messages and the token counts its callbacks got, not
 * the requests the agent sent and the responses the provider billed, which loopcost rebuilds runs from.
 */
import { UserError } from '../errors.js';
import { isJsonObject } from './common/jsonValue.js';
import { OTLP_GENAI_SPANS, RECORD_THE_CALLS } from './recordInstead.js';

/** LangSmith's run types (a run record's `run_type`). */
const RUN_TYPES: ReadonlySet<unknown> = new Set(['llm', 'chain', 'tool', 'retriever', 'prompt', 'parser', 'embedding']);

/** Whether a record is one LangSmith run: a run type, the trace it belongs to, and its inputs or outputs. */
function isLangSmithRun(record: unknown): boolean {
  return isJsonObject(record) && RUN_TYPES.has(record.run_type) && 'trace_id' in record && ('inputs' in record || 'outputs' in record);
}

/** Whether a record is a LangSmith run, or the runs API's `{runs: [run, …]}`. */
function isLangSmithExport(record: unknown): boolean {
  if (isLangSmithRun(record)) return true;
  return isJsonObject(record) && Array.isArray(record.runs) && isLangSmithRun(record.runs[0]);
}

// LangSmith's OpenTelemetry guide (docs.langchain.com/langsmith/trace-with-opentelemetry): the SDK emits
// OTel spans with LANGSMITH_OTEL_ENABLED=true, and a Collector can fan them out to more than LangSmith.
const HINT =
  `record the model calls under LangChain: ${RECORD_THE_CALLS}; or trace the agent with LangSmith's OpenTelemetry integration (langsmith[otel], LANGSMITH_OTEL_ENABLED=true) through an OpenTelemetry Collector that forwards the spans to LangSmith and writes them with its file exporter too, which loopcost reads where they are ${OTLP_GENAI_SPANS} (README, "Inputs"; docs/recording.md)`;

/** The refusal of a LangSmith runs export, when `record` (the input's first JSON record) is one; undefined otherwise. */
export function langSmithRunsRefusal(record: unknown, path: string): UserError | undefined {
  if (!isLangSmithExport(record)) return undefined;
  return new UserError({
    file: path,
    code: 'unknown_format',
    message:
      "is a LangSmith runs export (run records: run_type, trace_id, inputs, outputs), which loopcost does not read: its llm runs hold LangChain's serialised messages and token counts, not the requests the agent sent and the responses the provider billed, which loopcost rebuilds a run from",
    hint: HINT,
  });
}
