/**
 * OTLP JSON text → the flat list of its spans. The text is one ExportTraceServiceRequest document, or one
 * per line as the collector's file exporter writes them; each span keeps the line it is on (found by its
 * spanId) so that later errors can point at it.
 */
import { inputError } from '../common/issues.js';
import { jsonTextProblem } from '../../io/jsonText.js';
import { endBeforeStart } from '../../trace/rules.js';
import { handedDocument, jsonTextError } from '../common/jsonDocument.js';
import { fileTextSyntaxError, nonNumberHint } from '../common/jsonSyntaxError.js';
import { lineOfOffset, type SyntaxHints } from '../../io/jsonSyntax.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import { decodeAnyValue } from './anyValue.js';
import type { AttrValue, OtelSpan } from './span.js';

/** OTLP status code ERROR. */
const STATUS_ERROR = 2;

/** Cheap check on the parsed JSON: an OTLP trace export (a `resourceSpans` array). */
export function looksLikeOtlp(obj: unknown): boolean {
  return isJsonObject(obj) && Array.isArray(obj.resourceSpans);
}

interface Doc {
  value: unknown;
  /** 1-based line of the document (JSONL) — 1 for a whole-file document. */
  line: number;
  text: string;
}

/** Every span of every document, in document order. */
export function readOtlpSpans(content: string, path: string): OtelSpan[] {
  const docs = parseDocs(content, path);
  return docs.flatMap((d) => collectSpans(d, path));
}

const PLAIN_JSON_HINT = 'an OTLP JSON export as the exporter writes it: plain JSON, each key once';

/** Refuses a document nested too deep or with a key given twice (src/io/jsonText.ts). */
function checked(doc: Doc, path: string): Doc {
  const problem = jsonTextProblem(doc.text);
  if (problem) throw jsonTextError(problem, doc.text, path, PLAIN_JSON_HINT, doc.line);
  return doc;
}

/** What to do about an OTLP export that is no JSON, by what is wrong (src/import/common/jsonSyntaxError.ts). */
function exportHints(shape: string): SyntaxHints {
  return {
    nonNumber: nonNumberHint('export the spans again'),
    endsEarly: `${shape}; was the file truncated? copy it again, or wait until the collector has finished writing it`,
    other: `${shape}: fix the syntax at the line shown, or export the spans again`,
  };
}

const WHOLE_HINTS = exportHints('an OTLP JSON export must be one JSON document (or one per line)');
const LINE_HINTS = exportHints('one OTLP JSON document per line');

function parseDocs(content: string, path: string): Doc[] {
  // A whole-file export detection has just parsed and checked (src/import/formats.ts) is not parsed again.
  const handed = handedDocument(content);
  if (handed !== undefined) return [{ value: handed, line: 1, text: content }];
  let whole: Doc;
  try {
    whole = { value: JSON.parse(content) as unknown, line: 1, text: content };
  } catch (err) {
    const lines = content.split(/\r?\n/);
    const nonEmpty = lines.filter((l) => l.trim() !== '');
    if (nonEmpty.length <= 1 || !lines.every((l) => l.trim() === '' || l.trim().startsWith('{'))) {
      throw fileTextSyntaxError(content, err, { file: path, firstLine: 1, noun: 'file', hints: WHOLE_HINTS });
    }
    // The collector's file exporter writes one ExportTraceServiceRequest per line.
    const docs: Doc[] = [];
    lines.forEach((text, i) => {
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (lineErr) {
        throw fileTextSyntaxError(text, lineErr, { file: path, firstLine: i + 1, noun: 'line', subject: 'line ', hints: LINE_HINTS });
      }
      docs.push(checked({ value, line: i + 1, text }, path));
    });
    return docs;
  }
  return [checked(whole, path)];
}

function nanos(v: unknown, file: string, line: number | undefined, field: string): bigint {
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.round(v));
  if (v === undefined) throw inputError({ file, line, field }, 'missing_field', 'missing span time (unix nanoseconds)');
  throw inputError({ file, line, field }, 'wrong_type', `expected unix nanoseconds (a decimal string or number), got ${describeValue(v)}`);
}

/** `resourceSpans[].scopeSpans[].spans[]` (or the older `instrumentationLibrarySpans`) of one document. */
function collectSpans(doc: Doc, path: string): OtelSpan[] {
  const root = doc.value;
  if (!looksLikeOtlp(root)) {
    throw inputError(
      { file: path, line: doc.line, field: 'resourceSpans' },
      isJsonObject(root) ? 'missing_field' : 'wrong_type',
      'not an OTLP JSON trace export (no resourceSpans array)',
      'export traces with the OTLP JSON encoding (resourceSpans[].scopeSpans[].spans[])',
    );
  }
  const at = (field: string) => ({ file: path, line: doc.line, field });
  const spans: OtelSpan[] = [];
  const resourceSpans = (root as { resourceSpans: unknown[] }).resourceSpans;
  resourceSpans.forEach((rs, i) => {
    const rsPath = `resourceSpans[${i}]`;
    if (!isJsonObject(rs)) throw inputError(at(rsPath), 'wrong_type', `expected an object, got ${describeValue(rs)}`);
    const scopeKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : 'instrumentationLibrarySpans';
    const scopes = rs[scopeKey] ?? [];
    if (!Array.isArray(scopes)) throw inputError(at(`${rsPath}.${scopeKey}`), 'wrong_type', `expected an array, got ${describeValue(scopes)}`);
    scopes.forEach((ss, j) => {
      const ssPath = `${rsPath}.${scopeKey}[${j}]`;
      if (!isJsonObject(ss)) throw inputError(at(ssPath), 'wrong_type', `expected an object, got ${describeValue(ss)}`);
      const list = ss.spans ?? [];
      if (!Array.isArray(list)) throw inputError(at(`${ssPath}.spans`), 'wrong_type', `expected an array, got ${describeValue(list)}`);
      list.forEach((raw, k) => spans.push(readSpan(raw, `${ssPath}.spans[${k}]`, doc, path)));
    });
  });
  return spans;
}

/** One span object at `spPath`. */
function readSpan(raw: unknown, spPath: string, doc: Doc, path: string): OtelSpan {
  if (!isJsonObject(raw)) throw inputError({ file: path, line: doc.line, field: spPath }, 'wrong_type', `expected a span object, got ${describeValue(raw)}`);
  const spanId = typeof raw.spanId === 'string' ? raw.spanId : '';
  const line = spanLine(spanId, doc);
  if (typeof raw.traceId !== 'string' || raw.traceId === '') {
    throw inputError(
      { file: path, line, field: `${spPath}.traceId` },
      raw.traceId === undefined ? 'missing_field' : 'wrong_type',
      `expected the trace id string, got ${describeValue(raw.traceId)}`,
    );
  }
  const attrs = new Map<string, AttrValue>();
  const list = raw.attributes ?? [];
  if (!Array.isArray(list)) {
    throw inputError({ file: path, line, field: `${spPath}.attributes` }, 'wrong_type', `expected an array of {key, value}, got ${describeValue(list)}`);
  }
  list.forEach((kv, a) => {
    if (!isJsonObject(kv) || typeof kv.key !== 'string') {
      throw inputError({ file: path, line, field: `${spPath}.attributes[${a}]` }, 'wrong_type', 'expected {key: string, value: AnyValue}');
    }
    attrs.set(kv.key, decodeAnyValue(kv.value, path, line, `${spPath}.attributes['${kv.key}'].value`));
  });
  const status = isJsonObject(raw.status) ? raw.status : {};
  const code = status.code;
  const start = nanos(raw.startTimeUnixNano, path, line, `${spPath}.startTimeUnixNano`);
  const end = nanos(raw.endTimeUnixNano, path, line, `${spPath}.endTimeUnixNano`);
  const backwards = endBeforeStart(`${spPath}.endTimeUnixNano`, start, end, 'the span ends before it starts');
  if (backwards) {
    throw inputError({ file: path, line, field: backwards.field }, backwards.code, backwards.message, 'a span cannot end before it starts (an unfinished span exports end time 0): export the spans again once the run has ended');
  }
  return {
    traceId: raw.traceId,
    spanId,
    name: typeof raw.name === 'string' ? raw.name : '',
    start,
    end,
    attrs,
    statusError: code === STATUS_ERROR || code === 'STATUS_CODE_ERROR',
    ...(typeof status.message === 'string' && status.message !== '' ? { statusMessage: status.message } : {}),
    file: path,
    line,
    path: spPath,
  };
}

/** Line of the span's `"spanId": "…"` in the file, else the document's line. */
function spanLine(spanId: string, doc: Doc): number {
  if (spanId !== '') {
    const m = new RegExp(`"spanId"\\s*:\\s*"${spanId.replace(/[^A-Za-z0-9+/=_-]/g, '')}"`).exec(doc.text);
    if (m) return doc.line + lineOfOffset(doc.text, m.index) - 1;
  }
  return doc.line;
}
