/** A minimal Chat Completions client over fetch (what curl would send), for the serve tests. */
export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
}

export async function get(url: string, path: string): Promise<Answer> {
  const response = await fetch(`${url}${path}`);
  return { status: response.status, headers: response.headers, json: await response.json() };
}

/** The data payloads of an SSE body, `[DONE]` included. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

/** Every call of a session until the server says the trace ended (409); failed calls (5xx) included. */
export async function drain(url: string, session: string, max = 1000): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < max; i++) {
    const answer = await post(url, { model: 'any', messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': session });
    if (answer.status === 409) return answers;
    answers.push(answer);
  }
  throw new Error(`session ${session} did not end within ${max} calls`);
}

export function expectOpenAiError(answer: Answer): void {
  const error = answer.json?.error;
  if (typeof error?.message !== 'string' || typeof error?.type !== 'string' || !('param' in error) || !('code' in error)) {
    throw new Error(`not an OpenAI error body: ${JSON.stringify(answer.json)}`);
  }
}

/**
 * The request a run sends after `answer`: `messages`, then the answer's message sent back and a result for each
 * of its tool calls. Past a session's end, it gets the session's end (409); a request that sends back none of
 * the session's answers is another run's first, refused once the session has ended (src/serve/newRun.ts).
 */
export function sentBack(messages: readonly unknown[], answer: Answer): unknown[] {
  const message = answer.json.choices[0].message;
  const results = (message.tool_calls ?? []).map((call: { id: string }) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
  return [...messages, message, ...results];
}
