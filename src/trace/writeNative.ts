import type { Trace } from './types.js';
import { requireTraceShapes } from '../options/given.js';

/** Serialises runs as native JSONL: one header, its calls, one end record per run. */
export function writeNativeTraces(traces: readonly Trace[]): string {
  requireTraceShapes('writeNativeTraces', traces);
  const lines: string[] = [];
  for (const trace of traces) {
    lines.push(JSON.stringify(trace.header));
    for (const call of trace.calls) lines.push(JSON.stringify(call));
    lines.push(JSON.stringify(trace.end));
  }
  return lines.join('\n') + '\n';
}
