/**
 * Responses API streams (`event: response.*`): the terminal event — `response.completed`,
 * `response.incomplete` or `response.failed` — carries the whole response object (output items, tool
 * calls with their full arguments, usage), so it is the reassembled body; the `*.delta` events before it
 * only repeat it in pieces. An `error` event, or `response.failed`, makes a failed call.
 */
import { isJsonObject } from '../../common/jsonValue.js';
import type { Reader } from '../bodyReader.js';
import { cutOff, finishedWithoutUsage, streamError, type Assembled } from './assembled.js';
import type { StreamEvents } from './events.js';

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export function assembleResponsesStream(stream: StreamEvents, r: Reader): Assembled {
  for (const { name, data } of stream.events) {
    if ((name === 'error' || (isJsonObject(data) && data.type === 'error')) && isJsonObject(data)) {
      return streamError(isJsonObject(data.error) ? data.error : data);
    }
  }
  const terminal = [...stream.events].reverse().find((e) => e.name !== undefined && TERMINAL.has(e.name));
  if (terminal === undefined) return cutOff(stream.events.length, 'response.completed');
  const data = isJsonObject(terminal.data) ? terminal.data : {};
  const response = isJsonObject(data.response) ? data.response : undefined;
  if (response === undefined) return r.fail('', 'missing_field', `the ${terminal.name} event (line ${terminal.line ?? '?'}) has no response object`);
  if (terminal.name === 'response.failed') return streamError(response.error ?? 'response.failed');
  if (!isJsonObject(response.usage)) finishedWithoutUsage(r, 'usage', 'the terminal response event must carry usage');
  const notes: string[] = [];
  if (terminal.name === 'response.incomplete') {
    const details = isJsonObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    notes.push(`response incomplete${typeof details === 'string' ? ` (${details})` : ''}`);
  }
  return { body: response, notes };
}
