/**
 * A Model on any OpenAI-compatible Chat Completions endpoint, through the official `openai` SDK (6.x).
 * The SDK's own retries are off (maxRetries 0): every failed attempt reaches the loop, which records and
 * bills it and retries per its policy (README, "The real loop"). Usage is read from the response,
 * cached prompt tokens from `prompt_tokens_details.cached_tokens`, reasoning from
 * `completion_tokens_details.reasoning_tokens`, cache writes and a failed call's billed usage where the
 * response carries them (openaiUsage.ts). A usage no call can have (a prompt of 10^15 tokens) fails the call
 * as the server's error, named, not retried and billed nothing: billed, it would stop the run as one that
 * cost too much, blaming the run's settings for the server's figure. A 200 whose body is no chat completion
 * is a failed call, an empty response an unparseable step, a malformed tool call no throw (openaiResponse.ts).
 * The per-attempt timeout covers reading the body too (the SDK's own stops at the headers); a connection
 * lost while the body is read is a failed call, retried as a lost connection is. An attempt sent and never
 * read (a timeout, a lost connection, a 200 body that is no JSON) says so (ModelCallError `unread`): the
 * loop bills it at its prompt estimate (failedCalls.ts), as the provider may have answered and billed it.
 * One that never reached the server — refused, no such host, or a `fetch` of your own that threw before any
 * response with no network error beneath it — is billed nothing (providerSetup.ts mayHaveBeenSent).
 */
import { connectionErrorMessage, mayHaveBeenSent, providerSetupError, type RequestTarget } from './providerSetup.js';
import { recordedEndDetail } from '../trace/endDetail.js';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ModelCallError, ModelExhausted, type AgentMessage, type Model, type ModelRequest, type ModelTurn } from './types.js';
import { PURPOSE_HEADER } from '../serve/purpose.js';
import { UserError, type InputIssue } from '../errors.js';
import { FAILED_USAGE_FIELDS, failedUsageOf, implausibleUsage } from './openaiUsage.js';
import { completionOf, retryableAnswer, retryableStatus, serverUsageError, turnOf } from './openaiResponse.js';
import { CONTEXT_LENGTH_EXCEEDED, refusalOfMessage } from '../loop/refusalWords.js';
import { clientResponse, validateOpenAIChatOptions, type OUTPUT_CAP_FIELDS } from './openaiOptions.js';

export interface OpenAIChatOptions {
  /** The model name sent and priced (e.g. `gpt-4o-mini`). */
  model: string;
  provider?: string;
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  /** Default: OPENAI_API_KEY. */
  apiKey?: string;
  /** Per-attempt timeout (default 60 s), reading the response included; a timeout is a failed, retried call. */
  timeoutMs?: number;
  /** The output cap's field: `max_completion_tokens` (default; OpenAI) or `max_tokens` (older compatible servers). */
  outputCapField?: (typeof OUTPUT_CAP_FIELDS)[number];
  /** A client of your own (proxies, a custom fetch): the `openai` SDK's, any 6.x copy (OpenAIChatClient); its maxRetries should be 0. One whose create() returns no APIPromise is refused (openaiOptions.ts clientResponse). */
  client?: OpenAIChatClient;
  /** Headers sent on every request (e.g. `x-loopcost-session` to name a `loopcost serve` session), with a client of your own too. */
  headers?: Record<string, string>;
  /**
   * The model's context window (e.g. `pricing.contextWindow`): a response reporting a prompt or an output
   * past it is the server's error. Default: any model's (openaiUsage.ts MAX_CALL_TOKENS, 10,000,000).
   */
  contextWindowTokens?: number;
}

/**
 * What openAIChatModel uses of a client: an `OpenAI` of the `openai` SDK, typed by the few members read so a
 * client made with your own copy of the SDK (another 6.x version, whose class differs by its private fields) fits.
 */
export interface OpenAIChatClient {
  readonly baseURL: string;
  /** The per-attempt timeout in ms (the SDK's `timeout`), applied while the body is read too. */
  readonly timeout?: number;
  readonly chat: { readonly completions: { create(body: ChatCompletionCreateParamsNonStreaming, options: { headers: Record<string, string>; signal?: AbortSignal }): { asResponse(): Promise<Response> } } };
}

/** Statuses worth another attempt (openaiResponse.ts): timeouts, conflicts, rate limits, server errors. */
export { retryableStatus };

/**
 * The Model; its options are checked first (openaiOptions.ts): a misspelt or wrong one is a UserError naming
 * it, `<openAIChatModel options> field 'baseUrl'`, before any client is made or request sent.
 */
export function openAIChatModel(options: OpenAIChatOptions): Model {
  const envApiKey = process.env['OPENAI_API_KEY'];
  validateOpenAIChatOptions(options, envApiKey);
  const client: OpenAIChatClient =
    options.client ??
    new OpenAI({
      apiKey: options.apiKey ?? envApiKey,
      baseURL: options.baseURL ?? process.env['OPENAI_BASE_URL'] ?? null,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 60_000,
    });
  const capField = options.outputCapField ?? 'max_completion_tokens';
  // The attempt's own timeout (the SDK's stops once the headers arrive): a client of your own, its `timeout`.
  const attemptMs = typeof client.timeout === 'number' ? client.timeout : undefined;
  return {
    name: options.model,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    async call(request: ModelRequest): Promise<ModelTurn> {
      const body: ChatCompletionCreateParamsNonStreaming = { model: request.model ?? options.model, messages: request.messages.map(toOpenAI), [capField]: request.maxOutputTokens };
      if (request.tools.length > 0) body.tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
      if (request.tools.length > 0 && request.toolChoice === 'none') body.tool_choice = 'none';
      let response: Response;
      const attempt = attemptSignal(attemptMs, request.signal);
      try {
        const headers = { ...options.headers, ...(request.purpose === 'summary' ? { [PURPOSE_HEADER]: 'summary' } : {}) };
        // The body unparsed: one that is no chat completion is a failed call saying what it is (openaiResponse.ts).
        response = await clientResponse(client.chat.completions.create(body, { headers, ...(attempt.signal === undefined ? {} : { signal: attempt.signal }) }));
      } catch (error) {
        throw attempt.timedOut() ? timedOutError(error) : callError(error, options.contextWindowTokens, { baseURL: client.baseURL, model: body.model });
      }
      return turnOf(await completionRead(response, options.contextWindowTokens, attempt), options.contextWindowTokens);
    },
  };
}

/** One attempt's signal: the caller's (the loop's deadline and abort) and the attempt's timeout, over the request and reading its body; whether the timeout fired it. */
interface AttemptSignal {
  signal: AbortSignal | undefined;
  timedOut(): boolean;
}

function attemptSignal(timeoutMs: number | undefined, signal: AbortSignal | undefined): AttemptSignal {
  if (timeoutMs === undefined) return { signal, timedOut: () => false };
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]), timedOut: () => timeout.aborted && signal?.aborted !== true };
}

/** The attempt's timeout fired: a failed call, retried, its response never read (as the SDK's own timeout says it). */
function timedOutError(cause: unknown): ModelCallError {
  return new ModelCallError('Request timed out.', { retryable: true, unread: true, cause });
}

/** A 200 body that holds no answer to read (empty, not JSON, no choices list; an `error` object is the server's answer). */
const UNREAD_BODY = /^the response is no chat completion: the body (is empty|is not JSON|is JSON but no object|has no choices list)/;

/**
 * The body read as a chat completion (openaiResponse.ts completionOf). What reading it throws: the caller's
 * abort or the loop's deadline as it is; the attempt's timeout, a timed-out call; a connection lost, a failed
 * call retried as a lost connection is; each never read (`unread`), as is a body with nothing to read.
 */
async function completionRead(response: Response, contextWindowTokens: number | undefined, attempt: AttemptSignal) {
  try {
    return await completionOf(response, contextWindowTokens);
  } catch (error) {
    if (error instanceof ModelCallError) {
      if (error.options.usage !== undefined || !UNREAD_BODY.test(error.message)) throw error;
      throw new ModelCallError(error.message, { ...error.options, unread: true });
    }
    if (attempt.timedOut()) throw timedOutError(error);
    if (attempt.signal?.aborted === true) throw error;
    const said = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
    throw new ModelCallError(`the connection was lost while the response was read: ${said}`, { retryable: true, unread: true, cause: error });
  }
}

function toOpenAI(message: AgentMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? { tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })) }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default:
      return message;
  }
}

/** What `loopcost serve` says in `error.loopcost` of how the recording ended, and whether its model gave up at the failure answered. */
interface ServeSays {
  recordedOutcome?: unknown;
  recordedStatus?: unknown;
  gaveUp?: unknown;
}

function serveSays(error: InstanceType<typeof OpenAI.APIError>): ServeSays | undefined {
  return (error.error as { loopcost?: ServeSays } | undefined)?.loopcost;
}

/** How `loopcost serve` says the recording ended (`error.loopcost.recordedOutcome`, `recordedStatus`): the run ends so, saying what it says. */
function recordedEnd(error: InstanceType<typeof OpenAI.APIError>): ModelExhausted {
  const said = serveSays(error);
  if (said?.recordedOutcome === 'completed') return new ModelExhausted('completed');
  return new ModelExhausted('trace_end', recordedEndDetailOf(said));
}

/** The trace_end detail of the recording's end as serve says it (trace/endDetail.ts: its recorded status, else its outcome). */
function recordedEndDetailOf(said: ServeSays | undefined): string {
  const outcome = RECORDED_OUTCOMES.find((known) => known === said?.recordedOutcome) ?? 'unknown';
  return recordedEndDetail({ type: 'end', outcome, ...(typeof said?.recordedStatus === 'string' ? { status: said.recordedStatus } : {}) });
}

const RECORDED_OUTCOMES = ['error', 'timeout', 'limit', 'unknown'] as const;

/**
 * A recorded failure where the recording's model gave up (`loopcost serve` marks it `error.loopcost.gaveUp`,
 * kernel/gaveUp.ts): the run ends after it as the recorded run did — recorded and billed, not retried,
 * trace_end with the recording's end as detail (ModelCallError `endsRun`, as traceModel ends it).
 */
function gaveUpEnd(error: InstanceType<typeof OpenAI.APIError>): { endsRun: string } | undefined {
  const said = serveSays(error);
  return said?.gaveUp === true ? { endsRun: recordedEndDetailOf(said) } : undefined;
}

const AGENT_ENDED_AT = ' has ended: ';
const NEW_SESSION = '; start a new session';

/**
 * Why a synthetic agent `loopcost serve` answers for has nothing more to send, as serve's 409 says it
 * (`session <id> (<source>) has ended: <why>; start a new session`): <why> is the simulated run's own
 * trace_end detail (synthetic/endingWords.ts), so a served run stops as the simulated one does. Serve's
 * whole message when it is not so worded.
 */
function agentEndedDetail(error: InstanceType<typeof OpenAI.APIError>): string {
  const message = withoutStatus(error);
  const at = message.lastIndexOf(AGENT_ENDED_AT);
  if (at < 0) return message;
  const why = message.slice(at + AGENT_ENDED_AT.length);
  return why.endsWith(NEW_SESSION) ? why.slice(0, -NEW_SESSION.length) : why;
}

/** The issues `loopcost serve` names in a 422 (`error.loopcost.issues`), when they have the shape it writes. */
function serveIssuesOf(error: InstanceType<typeof OpenAI.APIError>): InputIssue[] | undefined {
  const issues = (error.error as { loopcost?: { issues?: unknown } } | undefined)?.loopcost?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const wellFormed = issues.every((issue) => typeof issue?.code === 'string' && typeof issue?.message === 'string');
  return wellFormed ? (issues as InputIssue[]) : undefined;
}

/** The SDK's message without the status it starts with: the loop records the status beside it and says it once. */
function withoutStatus(error: InstanceType<typeof OpenAI.APIError>): string {
  const prefix = `${error.status} `;
  return error.status !== undefined && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/** A failed attempt as the loop records it (the usage it was billed, when the error body says); the caller's abort passes through as it is. */
function callError(error: unknown, contextWindowTokens: number | undefined, target: RequestTarget): unknown {
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    // A `loopcost serve` session asked past the end of its trace: the run ends as the recording did.
    if (status === 409 && error.code === 'loopcost_trace_ended') return recordedEnd(error);
    // A synthetic agent served by `loopcost serve` has nothing more to send: its source is spent, as in replay.
    if (status === 409 && error.code === 'loopcost_agent_ended') return new ModelExhausted('trace_end', agentEndedDetail(error));
    // A `loopcost serve` session its client ended, serve retired as idle, or that answered another run (its header reused): nothing more will be answered.
    if (status === 409 && (error.code === 'loopcost_session_ended' || error.code === 'loopcost_session_idle' || error.code === 'loopcost_session_reused')) return new ModelExhausted('trace_end', withoutStatus(error));
    // `loopcost serve` could not answer from its scenario (a draw past 2^53, a run past exact picodollars):
    // the scenario file's fault, not the model's; the run ends with the CLI's own error, file and field named.
    const issues = status === 422 ? serveIssuesOf(error) : undefined;
    if (issues !== undefined) return new UserError(issues);
    // A key refused, a model or route the server lacks (401, 403, 404): the run's setup, not a failed call (providerSetup.ts).
    const setup = providerSetupError(error, target);
    if (setup) return setup;
    const usage = failedUsageOf(error.error);
    const wrong = usage && implausibleUsage(usage, FAILED_USAGE_FIELDS, contextWindowTokens);
    if (wrong) return serverUsageError(wrong, status, error);
    // A prompt past the model's window (OpenAI's, or serve's for a synthetic agent): the run ends there.
    const refusal = status === 400 && error.code === CONTEXT_LENGTH_EXCEEDED ? refusalOfMessage(error.message) : undefined;
    const gaveUp = gaveUpEnd(error);
    const retryAfterMs = retryAfterMsOf(error.headers);
    // A timeout, a connection lost once made: sent, its response never read. Not one that never reached the server (providerSetup.ts mayHaveBeenSent).
    const timedOut = error instanceof OpenAI.APIConnectionTimeoutError;
    const unread = error instanceof OpenAI.APIConnectionError && usage === undefined && (timedOut || mayHaveBeenSent(error));
    const message = error instanceof OpenAI.APIConnectionError ? connectionErrorMessage(error, target) : withoutStatus(error);
    return new ModelCallError(message, {
      ...(status === undefined ? {} : { status }),
      retryable: gaveUp === undefined && retryableAnswer(status, error.headers),
      ...(usage ? { usage } : {}),
      ...(refusal ? { refusal } : {}),
      ...gaveUp,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(unread ? { unread } : {}),
      cause: error,
    });
  }
  return error;
}

/**
 * How long the server asks to wait before another attempt, in ms (the loop waits the longer of it and its
 * back-off: retryWait.ts): `retry-after-ms` (OpenAI's), else `retry-after` in seconds or as an HTTP date —
 * a date read against the response's own `date` header (the server's clock, so no skew), else this
 * machine's. Undefined when the response does not say, or says nothing readable.
 */
export function retryAfterMsOf(headers: Headers | undefined): number | undefined {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const after = headers?.get('retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  const atMs = Date.parse(after);
  if (Number.isNaN(atMs)) return undefined;
  const serverNowMs = Date.parse(headers?.get('date') ?? '');
  return Math.max(0, atMs - (Number.isNaN(serverNowMs) ? Date.now() : serverNowMs));
}
