/**
 * `loopcost serve`: a Chat Completions endpoint on node:http that answers each conversation with the
 * next turn of a recorded trace, or with a synthetic behaviour reacting to the messages sent.
 *
 *   POST /v1/chat/completions   non-streaming, or `stream: true` (SSE; usage last with stream_options.include_usage)
 *   GET  /v1/models             the models of the traces / scenario
 *   GET  /loopcost/sessions     per-session calls, tokens and spend (JSON)
 *   POST /loopcost/sessions/<id>/end   ends a session in progress (a run its own brakes stopped): retired, totals kept
 *
 * Every failure is an OpenAI-style error body with a 4xx (5xx only for a bug, a recorded provider
 * failure answered as recorded, or a 503 past `maxSessions` sessions in progress) — 400 for a bad
 * request, 422 for a scenario that cannot answer it (a draw too large, named as the CLI names it);
 * nothing a client sends stops the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CacheMode } from '../context/strategy.js';
import { picoToUsdString } from '../money.js';
import type { PriceSource, PriceTable } from '../pricing/types.js';
import { UserError } from '../errors.js';
import { ApiError, invalidRequest, unanswerable, worthRetrying } from './apiError.js';
import { SessionRegistry, SESSION_HEADER, type ServeSources } from './registry.js';
import { completionBody, completionEvents } from './reply.js';
import { bodyText, parseChatRequest } from './request.js';
import type { SessionSummary } from './sessionSummary.js';
import { purposeOf } from './purpose.js';
import { decodedSessionId, headerValueOf, refuseOtherSourceHeader } from './headers.js';
import { checkServeOptions } from './options.js';
import { listenProblem } from './listenProblem.js';

export interface ServeOptions {
  sources: ServeSources;
  prices: PriceTable;
  /** Default 127.0.0.1; an empty or blank host is refused (Node would listen on every interface): 0.0.0.0 does that on purpose. */
  host?: string;
  /** Default 0: an ephemeral port (the result says which). */
  port?: number;
  /** Cache mode for recorded traces (default: each trace's own, as replay chooses it). */
  cache?: CacheMode;
  /** Largest request body taken, in bytes, a whole number ≥ 1 (default 32 MiB); larger → 413. */
  maxBodyBytes?: number;
  /** Most sessions in progress at once, a whole number ≥ 1: a request that would start one more is answered 503 (ended sessions keep only their totals and do not count). Default: no limit. */
  maxSessions?: number;
  /** A session in progress with no request for this many seconds (a whole number ≥ 1) is retired, its totals kept, and no longer counts toward maxSessions. Default: never. */
  sessionIdleSeconds?: number;
  /** The clock idle time is read from, in milliseconds (tests inject one; default: performance.now, monotonic). */
  nowMs?: () => number;
}

export interface SessionsReport {
  /** The price table every session's spend is priced with (each session says the model it is priced as). */
  priceTable: PriceSource;
  sessions: SessionSummary[];
  /** Exact: `costPico` a string of digits, as each session's. */
  totals: { sessions: number; calls: number; costPico: string; costUsd: string };
}

export interface RunningServer {
  /** `http://host:port` (append `/v1` for an OpenAI client's base URL). */
  url: string;
  host: string;
  port: number;
  sessions(): SessionsReport;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Starts the server; every option is checked first (options.ts): a UserError naming each problem, and nothing listens. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  checkServeOptions(options);
  const registry = new SessionRegistry({
    sources: options.sources,
    prices: options.prices,
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
    ...(options.sessionIdleSeconds === undefined ? {} : { sessionIdleMs: options.sessionIdleSeconds * 1000 }),
    ...(options.nowMs === undefined ? {} : { nowMs: options.nowMs }),
  });
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = (): SessionsReport => sessionsReport(options.prices.source, registry.summaries());
  const server = createServer((req, res) => {
    handle(req, res, { registry, maxBodyBytes, sessions, servesScenario: options.sources.scenario !== undefined }).catch((error: unknown) => sendError(res, apiErrorOf(error)));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    // An address it cannot listen on (a port in use, a host not this machine's) is the user's: a UserError in words, serve's own (listenProblem.ts).
    const refused = (error: unknown) => reject(listenProblem(error, { host, port: options.port ?? 0 }) ?? error);
    server.once('error', refused);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    host,
    port,
    sessions,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface Context {
  registry: SessionRegistry;
  maxBodyBytes: number;
  /** The server answers from a scenario file (else from recorded traces). */
  servesScenario: boolean;
  sessions: () => SessionsReport;
}

async function handle(req: IncomingMessage, res: ServerResponse, context: Context): Promise<void> {
  const path = pathOf(req);
  const route = ROUTES[path] ?? (END_PATH.test(path) ? END_ROUTE : undefined);
  if (!route) {
    req.resume();
    return sendError(res, new ApiError(404, `unknown request URL: ${req.method} ${path} (loopcost serve answers POST /v1/chat/completions, GET /v1/models, GET /loopcost/sessions, POST /loopcost/sessions/<id>/end)`, 'invalid_request_error', null, 'unknown_url'));
  }
  if (req.method !== route.method) {
    req.resume();
    res.setHeader('allow', route.method);
    return sendError(res, new ApiError(405, `${path} takes ${route.method}, not ${req.method}`, 'invalid_request_error', null, 'method_not_allowed'));
  }
  try {
    await route.handle(req, res, context);
  } catch (error) {
    sendError(res, apiErrorOf(error));
  }
}

const ROUTES: Record<string, { method: string; handle: (req: IncomingMessage, res: ServerResponse, context: Context) => Promise<void> | void }> = {
  '/v1/chat/completions': { method: 'POST', handle: chatCompletions },
  '/chat/completions': { method: 'POST', handle: chatCompletions },
  '/v1/models': { method: 'GET', handle: (_req, res, { registry }) => sendJson(res, 200, modelList(registry.models())) },
  '/models': { method: 'GET', handle: (_req, res, { registry }) => sendJson(res, 200, modelList(registry.models())) },
  '/loopcost/sessions': { method: 'GET', handle: (_req, res, { sessions }) => sendJson(res, 200, sessions()) },
};

/** The request's URL path, its query and trailing slashes dropped (`/` for none): what routes it. */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') || '/';
}

/** `/loopcost/sessions/<id>/end` (the id URL-encoded, as `encodeURIComponent` writes it: decoded once, as the session header is, headers.ts sessionIdOf). */
const END_PATH = /^\/loopcost\/sessions\/([^/]+)\/end$/;
const END_ROUTE = { method: 'POST', handle: endSession };

/**
 * A client ends its session (its run stopped, by its own brakes or otherwise): retired at once, its totals
 * kept, no longer in progress; answered with the session's summary as `GET /loopcost/sessions` gives it.
 * Ending a session already ended is answered the same way (it stays as it ended); an unknown id is a 404.
 */
function endSession(req: IncomingMessage, res: ServerResponse, { registry }: Context): void {
  req.resume();
  const id = decodedSessionId(END_PATH.exec(pathOf(req))![1]!, 'id');
  const summary = registry.end(id);
  if (!summary) throw new ApiError(404, `no session '${id}' (GET /loopcost/sessions lists them; a session's id is its x-loopcost-session header, echoed in every response)`, 'invalid_request_error', null, 'loopcost_unknown_session');
  sendJson(res, 200, summary);
}

async function chatCompletions(req: IncomingMessage, res: ServerResponse, { registry, maxBodyBytes, servesScenario }: Context): Promise<void> {
  const request = parseChatRequest(await readBody(req, maxBodyBytes));
  refuseOtherSourceHeader(req.headers, servesScenario);
  const purpose = purposeOf(req.headers, request);
  const session = registry.sessionFor(req.headers, request);
  res.setHeader(SESSION_HEADER, headerValueOf(session.id));
  const reply = registry.answer(session, request, purpose);
  if (request.stream !== true) return sendJson(res, 200, completionBody(reply));
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.end(completionEvents(reply, request.stream_options?.include_usage === true));
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new ApiError(413, `the request body is larger than ${maxBytes} bytes`, 'invalid_request_error', null, 'request_too_large'));
      else {
        try {
          resolve(bodyText(Buffer.concat(chunks), req.headers['content-encoding']));
        } catch (error) {
          reject(error);
        }
      }
    });
    req.on('error', () => reject(invalidRequest('the request body could not be read')));
  });
}

function modelList(models: readonly string[]) {
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'loopcost' })) };
}

function sessionsReport(priceTable: PriceSource, sessions: SessionSummary[]): SessionsReport {
  const costPico = sessions.reduce((sum, s) => sum + BigInt(s.costPico), 0n);
  return {
    priceTable,
    sessions,
    totals: { sessions: sessions.length, calls: sessions.reduce((sum, s) => sum + s.calls, 0), costPico: costPico.toString(), costUsd: picoToUsdString(costPico) },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // OpenAI's SDKs (and the real loop's adapter) obey `x-should-retry`, else retry 408, 409, 429 and 5xx: only a recorded
  // provider failure the recorded run went on from is worth a retry, whatever its status (a 400 too: its recorded client
  // asked again, and the next call of the trace is what it got); none of serve's own errors is.
  res.setHeader('x-should-retry', worthRetrying(error) ? 'true' : 'false');
  sendJson(res, error.status, error.body());
}

/** What a failure is answered with: its own ApiError, a UserError's 422 (src/errors.ts: the input's fault), else a bug's 500. */
function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UserError) return unanswerable(error);
  return internalError(error);
}

function internalError(error: unknown): ApiError {
  return new ApiError(500, `loopcost serve: internal error — please report it: ${(error as Error)?.message ?? String(error)}`, 'server_error', null, 'internal_error');
}
