/**
 * The synchronous import of a document of any supported format, for library users who hold the text:
 * every importer is loaded with this module. Commands read through `streamTraceFile` (src/import/index.ts),
 * which loads only the importer of the format it detects.
 */
import { parseNativeTraces } from '../trace/parseNative.js';
import type { Trace } from '../trace/types.js';
import { importClaudeCodeText } from './claudeCode.js';
import { importCodexText } from './codex.js';
import type { TraceFormat } from './formats.js';
import { importCassette } from './http/cassette.js';
import { importExchangesJsonl } from './http/exchanges.js';
import { importWith, withSidecar, type Importer } from './importers.js';
import { importMiniSweAgent } from './miniSweAgent.js';
import { importOtlpJson } from './otel.js';
import { importSweAgent } from './sweAgent.js';
import { requireStrings } from '../options/textArguments.js';
import { allMadeValid } from '../options/traceValues.js';

const IMPORTERS: Record<TraceFormat, Importer> = {
  native: parseNativeTraces,
  'mini-swe-agent': importMiniSweAgent,
  'swe-agent': withSidecar(importSweAgent),
  cassette: importCassette,
  exchanges: importExchangesJsonl,
  otlp: importOtlpJson,
  'claude-code': importClaudeCodeText,
  codex: importCodexText,
};

/**
 * The runs of a document of any supported format (detected from the content unless given), held to the
 * rules every run obeys (src/trace/rules.ts); an issue an importer could not place in a file is placed in this one.
 */
export function importText(text: string, path: string, format?: TraceFormat): Trace[] {
  requireStrings('importText', { text, path, format }, ['format']);
  return allMadeValid(importWith((found) => IMPORTERS[found], text, path, format));
}
