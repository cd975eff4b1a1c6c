/**
 * The spans of an import → one Trace per traceId that has model-call spans (runs ordered by their first
 * span): header (model, provider, system and goal tokens, notes), calls (calls.ts) and end (runEnd.ts).
 */
import { TRACE_SCHEMA, type Trace } from '../../trace/types.js';
import { inputError } from '../common/issues.js';
import { recordedAtOfNanos } from '../common/timestamp.js';
import { countTokens } from '../tokenCount.js';
import {
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  attrField,
  stringAttr,
} from './attributes.js';
import { readCalls } from './calls.js';
import { firstUserText, instructionsText } from './promptText.js';
import { providerId } from './provider.js';
import { runEnd } from './runEnd.js';
import type { OtelSpan } from './span.js';
import { isModelSpan, isToolSpan } from './spanKinds.js';
import { counted } from '../../plural.js';

const OTLP_JSON_FORMAT = 'otlp-json';

function byStart(a: { start: bigint }, b: { start: bigint }): number {
  return a.start < b.start ? -1 : a.start > b.start ? 1 : 0;
}

export function buildOtelTraces(spans: OtelSpan[], path: string): Trace[] {
  const byTrace = new Map<string, OtelSpan[]>();
  for (const s of spans) {
    const list = byTrace.get(s.traceId);
    if (list) list.push(s);
    else byTrace.set(s.traceId, [s]);
  }
  const groups = [...byTrace.entries()]
    .map(([id, list]) => ({ id, list, start: list.reduce((m, s) => (s.start < m ? s.start : m), list[0]!.start) }))
    .sort(byStart);
  const withModel = groups.filter((g) => g.list.some(isModelSpan));
  if (withModel.length === 0) {
    throw inputError(
      { file: path, field: 'resourceSpans' },
      'no_model_calls',
      `no GenAI model-call spans (${ATTR_GEN_AI_OPERATION_NAME} = chat) among ${counted(spans.length, 'span')}`,
      'export the spans of a GenAI-instrumented agent (OpenTelemetry GenAI semantic conventions)',
    );
  }
  const skipped = groups.length - withModel.length;
  return withModel.map((g, i) => {
    const source = withModel.length > 1 ? `${path}#${i + 1}` : path;
    const trace = buildRun(g.id, g.list, source, path);
    if (skipped > 0 && i === 0) trace.header.importedFrom?.notes?.push(`${skipped} trace(s) without model-call spans skipped`);
    return trace;
  });
}

/** The Trace of one traceId's spans, at least one of them a model call. */
function buildRun(traceId: string, spans: OtelSpan[], source: string, path: string): Trace {
  const sorted = [...spans].sort(byStart);
  const modelSpans = sorted.filter(isModelSpan);
  const first = modelSpans[0]!;
  const model = stringAttr(first, ATTR_GEN_AI_REQUEST_MODEL) ?? stringAttr(first, ATTR_GEN_AI_RESPONSE_MODEL);
  if (model === undefined) {
    throw inputError(
      { file: path, line: first.line, field: attrField(first, ATTR_GEN_AI_REQUEST_MODEL) },
      'missing_field',
      'the first model-call span has no model name',
      `set ${ATTR_GEN_AI_REQUEST_MODEL} on chat spans`,
    );
  }
  const providerName = stringAttr(first, ATTR_GEN_AI_PROVIDER_NAME) ?? stringAttr(first, ATTR_GEN_AI_SYSTEM);
  const provider = providerName === undefined ? undefined : providerId(providerName);
  const notes: string[] = [`traceId ${traceId}`];
  if (providerName !== undefined && provider !== providerName) notes.push(`provider ${providerName} read as ${provider}`);
  const toolsBefore = sorted.filter((s) => isToolSpan(s) && s.start < first.start).length;
  if (toolsBefore > 0) notes.push(`${toolsBefore} execute_tool span(s) before the first model call ignored`);

  const calls = readCalls(modelSpans, sorted, model, path);
  const end = runEnd(calls, sorted);

  const systemText = instructionsText(stringAttr(first, ATTR_GEN_AI_SYSTEM_INSTRUCTIONS));
  const goalText = firstUserText(stringAttr(first, ATTR_GEN_AI_INPUT_MESSAGES));
  if (!first.attrs.has(ATTR_GEN_AI_SYSTEM_INSTRUCTIONS) && !first.attrs.has(ATTR_GEN_AI_INPUT_MESSAGES)) {
    notes.push(`no ${ATTR_GEN_AI_SYSTEM_INSTRUCTIONS} / ${ATTR_GEN_AI_INPUT_MESSAGES} on the first chat span: systemTokens and goalTokens are 0`);
  }
  // The run is dated by its earliest span start, as a cassette's run by its first interaction's date.
  const recordedAt = recordedAtOfNanos(sorted.map((s) => s.start));
  return {
    source,
    // The line the model was read from (the first model-call span's), as the missing model names it.
    ...(first.line !== undefined ? { headerLine: first.line } : {}),
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model,
      ...(provider !== undefined ? { provider } : {}),
      systemTokens: countTokens(systemText, model),
      goalTokens: countTokens(goalText, model),
      origin: 'recorded',
      ...(recordedAt !== undefined ? { recordedAt } : {}),
      importedFrom: { format: OTLP_JSON_FORMAT, path, notes },
    },
    calls,
    end,
  };
}
