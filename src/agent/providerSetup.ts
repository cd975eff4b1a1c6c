/**
 * A provider's answer that says the run's setup is wrong, not that a call failed: what openAIChatModel
 * (openaiChat.ts callError) makes of it, in words a user can act on.
 *
 *   401 (the key refused)         a UserError naming `apiKey`; 403 (the key may not use the model, its
 *   403 (access refused)          project, its region) and 404 (no such model, or no chat completions
 *   404 (no model, no route)      route at baseURL: a path without /v1) naming `model` and `baseURL`
 *
 * Thrown out of runAgentLoop (its figures so far attached as `partialRun`, the recording ended `error`,
 * as any thrown run: thrownRun.ts), never retried: every retry, every later call and every run with these
 * options gets the same answer, so a run that "ended trace_end after one step" would hide a configuration
 * error behind a result — a script goes on to the next run, a report counts a $0 run. (`loopcost serve`
 * replaying a recorded failure with such a status — `loopcost_recorded_failure` — is a failed call, as the
 * recording has it.)
 *
 * A request that never reached the server (`Connection error.`, the SDK's whole message) is named with
 * the URL it was sent to and the cause the SDK keeps beneath it (ECONNREFUSED: nothing listens there;
 * ENOTFOUND: the host does not resolve; …), so the run's stop detail says what to fix.
 *
 * Runtime checks are by shape (status, code, cause), never by the SDK's classes: this module stays in the core.
 */
import { UserError } from '../errors.js';

/** An OpenAI SDK APIError as read here: its status, code and body. */
interface ApiErrorLike {
  status?: unknown;
  code?: unknown;
  message: string;
}

/** Where the request went: the client's base URL and the model asked for. */
export interface RequestTarget {
  baseURL: string;
  model: string;
}

const OPTIONS = '<openAIChatModel options>';

/** The recorded failure `loopcost serve` replays (src/serve/apiError.ts RECORDED_FAILURE): the recording's call, not this run's setup. */
const RECORDED_FAILURE = 'loopcost_recorded_failure';

/** The UserError a 401, 403 or 404 is (see the module comment); undefined for any other answer. */
export function providerSetupError(error: ApiErrorLike, target: RequestTarget): UserError | undefined {
  if (error.code === RECORDED_FAILURE) return undefined;
  const said = `${target.baseURL} answered ${error.message}`;
  switch (error.status) {
    case 401:
      return new UserError({ file: OPTIONS, field: 'apiKey', code: 'provider_refused_key', message: `${said}: it does not accept the API key`, hint: 'give a key it accepts (apiKey, else OPENAI_API_KEY); a key for another provider or project is refused too' });
    case 403:
      return new UserError({ file: OPTIONS, field: 'model', code: 'provider_refused_access', message: `${said}: the key may not call ${target.model} there`, hint: `use a key (project, organization) allowed to call ${target.model}, from a region the provider serves, or another model` });
    case 404:
      return new UserError({ file: OPTIONS, field: 'model', code: 'provider_unknown_model', message: `${said}: it has no model ${target.model}, or no chat completions at that URL`, hint: `check the model's name (GET ${target.baseURL}/models lists the server's) and baseURL (most servers' end in /v1)` });
    default:
      return undefined;
  }
}

/** What a connection error's code means for the user, by the code Node (or undici) gives. */
const MEANINGS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there: is the server running, and baseURL its address and port?',
  ENOTFOUND: "the host name does not resolve: check baseURL's host",
  EAI_AGAIN: 'the host name could not be looked up for now (DNS)',
  ECONNRESET: 'the server closed the connection',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  ENETUNREACH: 'the network is unreachable from here',
  EHOSTUNREACH: 'the host is unreachable from here',
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate names another host",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate could not be verified",
};

/**
 * A connection error's message with the URL the request went to and its cause: `Connection error. (POST
 * http://127.0.0.1:1/v1/chat/completions: ECONNREFUSED, connect ECONNREFUSED 127.0.0.1:1 — nothing listens
 * there: …)`. The SDK's message as it is when no cause beneath it says more.
 */
export function connectionErrorMessage(error: { message: string; cause?: unknown }, target: Pick<RequestTarget, 'baseURL'>): string {
  const cause = deepestCause(error);
  const code = codeIn(error);
  const what = [code, cause !== undefined && cause !== error && cause.message && cause.message !== code ? cause.message : undefined].filter(Boolean).join(', ');
  const meaning = code === undefined ? undefined : MEANINGS[code];
  return `${error.message} (POST ${target.baseURL}/chat/completions${what ? `: ${what}` : ''}${meaning ? ` — ${meaning}` : ''})`;
}

/** The innermost Error of `error`'s cause chain (at most 5 deep). */
function deepestCause(error: unknown): { message: string } | undefined {
  let found: { message: string } | undefined;
  for (let at = error, depth = 0; typeof at === 'object' && at !== null && depth < 6; at = (at as { cause?: unknown }).cause, depth++) {
    if (typeof (at as { message?: unknown }).message === 'string') found = at as { message: string };
  }
  return found;
}

/** The first system error code (`ECONNREFUSED`, `ENOTFOUND`, …) in `error`'s cause chain. */
function codeIn(error: unknown): string | undefined {
  return codesIn(error)[0];
}

/** Every system error code in `error`'s cause chain (at most 6 deep), outermost first. */
function codesIn(error: unknown): string[] {
  const codes: string[] = [];
  for (let at = error, depth = 0; typeof at === 'object' && at !== null && depth < 6; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) codes.push(code);
  }
  return codes;
}

/** Codes of a connection never made, so of a request never sent (nothing billed): refused, no such host, no route, a TLS handshake that failed. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);

/**
 * Whether a connection error (no response received) may have left a request the server took, and bills:
 * only when the network says so — a code beneath it of a connection made and then lost (ECONNRESET, a
 * socket closed, …). A code of a connection never made (NEVER_SENT) says it was not sent; so does an error
 * with no network code beneath it at all — a `fetch` of the caller's own that threw before any response
 * (`proxy down`): nothing says the request left, as nothing does for ECONNREFUSED. (A timeout is another
 * matter: the request was in flight; openaiChat.ts bills it at the estimate.)
 */
export function mayHaveBeenSent(error: unknown): boolean {
  const codes = codesIn(error);
  return codes.length > 0 && !codes.some((code) => NEVER_SENT.has(code));
}
