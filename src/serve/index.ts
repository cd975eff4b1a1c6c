/** `loopcost serve` as a library: start a Chat Completions server in-process (tests, parity harnesses). */
export { startServer, type RunningServer, type ServeOptions, type SessionsReport } from './server.js';
export { SESSION_HEADER, TRACE_HEADER, RUN_HEADER, type ServeSources } from './registry.js';
export type { SessionSummary } from './sessionSummary.js';
export type { Reply, ReplyToolCall, OpenAiUsage } from './reply.js';
export type { ApiErrorBody } from './apiError.js';
