/**
 * openAIChatModel's options, checked before a client is made: one UserError naming every field
 * (`<openAIChatModel options> field 'timeoutMs'`), by the rules every entry point's options follow
 * (options/rules.ts, options/arguments.ts). A misspelt option (`baseUrl`) would be silently ignored and the
 * requests sent to api.openai.com at real cost; a cap field no provider reads would send no output cap; a
 * timeout past what a timer holds would fire at once. Pure: the environment's key is passed in.
 */
import { UserError } from '../errors.js';
import { stringIssue } from '../options/arguments.js';
import { choiceIssue, countIssue, isObject, modelNameIssue, objectIssue, optionsFile, shown, validateOptions, type Issue, type ListsEvery } from '../options/rules.js';
import type { OpenAIChatOptions } from './openaiChat.js';

const KEYS = ['model', 'provider', 'baseURL', 'apiKey', 'timeoutMs', 'outputCapField', 'client', 'headers', 'contextWindowTokens'] as const;
const KEYS_COMPLETE: ListsEvery<OpenAIChatOptions, typeof KEYS> = true;
void KEYS_COMPLETE;

/** The output cap's fields a server reads (OpenAI's, older compatible servers'). */
export const OUTPUT_CAP_FIELDS = ['max_completion_tokens', 'max_tokens'] as const;

/** The longest a timer waits (2^31 − 1 ms, about 24.8 days): a longer per-attempt timeout fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The options a client of the caller's own replaces: set on that client, they are not read. */
const CLIENT_SETTINGS = ['baseURL', 'apiKey', 'timeoutMs'] as const;

/** Checks openAIChatModel's `options` (`envApiKey`: OPENAI_API_KEY as set) and throws every issue found as one UserError. */
export function validateOpenAIChatOptions(options: unknown, envApiKey: string | undefined): void {
  validateOptions('openAIChatModel', options, KEYS, (issue, o) => {
    modelNameIssue(issue, 'model', o.model, true);
    stringIssue(issue, o.provider, { field: 'provider', hint: "the provider the model is priced under, e.g. 'openai'; or leave it out", optional: true });
    baseUrlIssue(issue, o.baseURL);
    apiKeyIssue(issue, o, envApiKey);
    const timeout = o.timeoutMs;
    if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && timeout <= MAX_TIMER_MS)) {
      issue('timeoutMs', 'invalid_number', `${shown(timeout)} is not a number of milliseconds from 1 to ${MAX_TIMER_MS} (the longest a timer waits)`, 'the per-attempt timeout, e.g. 60000; leave it out for 60 s');
    }
    choiceIssue(issue, 'outputCapField', o.outputCapField, OUTPUT_CAP_FIELDS, 'leave it out for max_completion_tokens (OpenAI); max_tokens for older compatible servers');
    clientIssues(issue, o);
    headersIssue(issue, o.headers);
    countIssue(issue, 'contextWindowTokens', o.contextWindowTokens, "the model's context window in tokens (e.g. pricing.contextWindow); leave it out for any model's");
  });
}

function baseUrlIssue(issue: Issue, baseURL: unknown): void {
  const hint = "the endpoint's base URL, e.g. 'http://localhost:8080/v1'; leave it out for OPENAI_BASE_URL, else https://api.openai.com/v1";
  if (typeof baseURL !== 'string') return stringIssue(issue, baseURL, { field: 'baseURL', hint, optional: true });
  const protocol = URL.canParse(baseURL) ? new URL(baseURL).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') issue('baseURL', 'invalid_value', `${shown(baseURL)} is not an http(s) URL`, hint);
}

/** A key: given non-empty, or in the environment, unless a client of the caller's own holds it. */
function apiKeyIssue(issue: Issue, o: Record<string, unknown>, envApiKey: string | undefined): void {
  const hint = 'pass apiKey or set OPENAI_API_KEY (any non-empty value for a local server)';
  if (o.apiKey !== undefined) {
    if (typeof o.apiKey !== 'string' || o.apiKey === '') issue('apiKey', 'invalid_value', `${shown(o.apiKey)} is not an API key`, hint);
  } else if (o.client === undefined && (envApiKey === undefined || envApiKey === '')) {
    issue('apiKey', 'missing_field', 'is missing, and OPENAI_API_KEY is not set: no API key', hint);
  }
}

/** A client of the caller's own: one that creates chat completions, with no option beside it that it would ignore. */
function clientIssues(issue: Issue, o: Record<string, unknown>): void {
  if (o.client === undefined) return;
  const client = o.client as { chat?: { completions?: { create?: unknown } } } | null;
  if (typeof client?.chat?.completions?.create !== 'function') {
    issue('client', 'invalid_value', typeof client === 'object' && client !== null ? 'has no chat.completions.create() method' : `${shown(o.client)} is not a client`, 'an OpenAI client: new OpenAI({ apiKey, baseURL, maxRetries: 0 }); or leave it out');
  }
  for (const key of CLIENT_SETTINGS) {
    if (o[key] !== undefined) issue(key, 'conflicting_options', 'is given with a client of your own, which would not read it', `set it on the client (new OpenAI({ ${key === 'timeoutMs' ? 'timeout' : key} })), or leave the client out`);
  }
}

/**
 * The response of a request made by `create()` of the `client` option: what it returned (the SDK's APIPromise),
 * read unparsed (`asResponse()`). A client whose create() returns anything else — a JavaScript wrapper or mock
 * returning a plain promise — is refused at its first call (what create() returns is known no earlier): a
 * UserError naming `client`, since the loop reads a call's status, headers, usage and failures off the SDK's
 * response and errors, and a plain promise's would be billed and retried wrong. Its promise's rejection is
 * handled here, never left unhandled (one killed the process).
 */
export function clientResponse(created: unknown): Promise<Response> {
  const asResponse = (created as { asResponse?: unknown } | null | undefined)?.asResponse;
  if (typeof asResponse === 'function') return (asResponse as () => Promise<Response>).call(created);
  const then = (created as { then?: unknown } | null | undefined)?.then;
  if (typeof then === 'function') (then as PromiseLike<unknown>['then']).call(created, undefined, () => undefined);
  throw new UserError({
    file: optionsFile('openAIChatModel'),
    field: 'client',
    code: 'client_not_sdk',
    message: `its chat.completions.create() returned ${typeof then === 'function' ? 'a plain promise' : isObject(created) ? 'an object' : shown(created)}, not the openai SDK's APIPromise (no asResponse()): the loop reads each call's response and errors as the SDK gives them`,
    hint: 'pass a client of the openai SDK 6.x, new OpenAI({ apiKey, baseURL, maxRetries: 0 }), with its own fetch for a proxy or a test double (new OpenAI({ fetch })); or write a Model of your own',
  });
}

function headersIssue(issue: Issue, headers: unknown): void {
  const hint = "header names and their texts, e.g. { 'x-loopcost-session': 'run-1' }";
  if (!objectIssue(issue, 'headers', headers, hint)) return;
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') issue(`headers.${name}`, 'invalid_value', `${shown(value)} is not a header's text`, hint);
  }
}
