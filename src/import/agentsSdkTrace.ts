/**
 * An OpenAI Agents SDK trace export: `{"object": "trace", …, "spans": [{"object": "trace.span", …}]}` (a
 * trace and its spans in one document, one a line, or as its exporter posts them under `data`). Recognised
 * only to be refused by name with the way to a recording loopcost reads (formats.ts unknownFormat): its
 * spans name the agent's steps and model calls, but a Responses call's span holds its response id, not the
 * usage the provider billed (prompt, cached and output tokens), so there is nothing exact to replay. No
 * importer is written for it.
 */
import { UserError } from '../errors.js';
import { isJsonObject } from './common/jsonValue.js';
import { OTLP_GENAI_SPANS, RECORD_THE_CALLS } from './recordInstead.js';

const SDK_OBJECTS: ReadonlySet<unknown> = new Set(['trace', 'trace.span']);

/** Whether a record is the SDK's trace or span export, or its exporter's `{data: [trace or span, …]}`. */
function isAgentsSdkRecord(record: unknown): boolean {
  if (!isJsonObject(record)) return false;
  if (SDK_OBJECTS.has(record.object)) return true;
  return Array.isArray(record.data) && isJsonObject(record.data[0]) && SDK_OBJECTS.has(record.data[0].object);
}

const HINT = `record the model calls themselves, which the SDK makes through the OpenAI client: ${RECORD_THE_CALLS}; or export ${OTLP_GENAI_SPANS} (README, "Inputs")`;

/** The refusal of an OpenAI Agents SDK trace export, when `record` (the input's first JSON record) is one; undefined otherwise. */
export function agentsSdkTraceRefusal(record: unknown, path: string): UserError | undefined {
  if (!isAgentsSdkRecord(record)) return undefined;
  return new UserError({
    file: path,
    code: 'unknown_format',
    message:
      "is an OpenAI Agents SDK trace export (object: trace, with its spans), which loopcost does not read: its spans name the agent's steps and model calls, but a Responses call's span holds its response id, not the tokens the provider billed, so there is no exact usage to replay",
    hint: HINT,
  });
}
