/**
 * What a tool threw, in the words its error observation gives the model (tools.ts) and its recording keeps
 * (the same-tool-same-error brake compares them). An Error: its message, once — its name before it only
 * when the name says more (`TypeError: x is not a function`, a class of one's own: `OrderNotFound: ZZ`),
 * not the bare `Error` every Error has, nor a name the message already begins with. Another value: its
 * JSON when it has one (a thrown `{ code: 'E42' }` reads `{"code":"E42"}`, not `[object Object]`), else its
 * text (with its keys' names when the text is only `[object Object]`). Never throws, whatever was thrown (a getter that throws, a revoked Proxy).
 */

/** `thrown` in words (see the module comment). */
export function thrownWords(thrown: unknown): string {
  try {
    return wordsOf(thrown);
  } catch {
    return `a value with no text (${typeof thrown}) was thrown`;
  }
}

function wordsOf(thrown: unknown): string {
  // An Error of another realm (a vm context's) is no `instanceof Error` here, but is one all the same.
  if (thrown instanceof Error || Object.prototype.toString.call(thrown) === '[object Error]') return errorWords(thrown as Error);
  if (typeof thrown === 'string') return thrown === '' ? 'an empty string was thrown' : thrown;
  if (typeof thrown === 'object' && thrown !== null) return jsonOf(thrown) ?? withoutJson(thrown);
  return String(thrown);
}

/** An Error's message, its name before it when the name adds something. */
function errorWords(error: Error): string {
  const name = typeof error.name === 'string' ? error.name : '';
  const message = typeof error.message === 'string' ? error.message : String(error.message);
  if (message === '') return name === '' ? 'Error' : name;
  if (name === '' || name === 'Error' || message.startsWith(`${name}:`)) return message;
  return `${name}: ${message}`;
}

/** An object that has no JSON: its text, and the names of its own keys when the text says nothing (`[object Object]`). */
function withoutJson(value: object): string {
  const text = String(value);
  const keys = Object.keys(value);
  return /^\[object \w+\]$/.test(text) && keys.length > 0 ? `${text} (no JSON; keys ${keys.slice(0, 10).join(', ')}${keys.length > 10 ? ', …' : ''})` : text;
}

/** Its JSON, when it serialises (not a cycle, a BigInt, a throwing toJSON). */
function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
