/** The headers by which a request names its session, trace or run (registry.ts), and how one is read. */

/** A request's headers as node:http gives them (IncomingHttpHeaders), named structurally so the public types need no @types/node. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export const SESSION_HEADER = 'x-loopcost-session';
export const TRACE_HEADER = 'x-loopcost-trace';
export const RUN_HEADER = 'x-loopcost-run';
/** The longest session id a header may give. */
export const MAX_SESSION_ID = 200;

/** The header `name`'s value, trimmed (the first if given twice); undefined when absent or blank. */
export function header(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}
