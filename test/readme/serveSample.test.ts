/**
 * The README's `serve` sample stays true: the `curl` requests of its ```text block (after "With that server
 * running") are sent, as curl sends them, to an in-process server (port 0) answering from the trace the
 * README's `loopcost serve … --port P` line names, and each answer must read as the README prints it.
 * Before, the sample showed a cost from older prices (353,770,000 picodollars for 77,336,000) and nothing
 * checked it.
 *
 * How the README's text is read: an answer's lines are one line of JSON, each continuation line starting
 * with one space; `...` stands for text left out (a comma beside it is part of what is left out), so the
 * answer must hold the rest, in order, starting and ending as the README's does.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';

const ROOT = resolve(__dirname, '../..');

/** One `$ curl …` of the sample and the answer the README prints for it. */
export interface CurlSample {
  command: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  shown: string;
}

/** Words of a shell line: spaces split, single quotes keep (all the sample uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** The request a curl line sends: its path, `-H` headers, `-d` body (a POST, form-encoded as curl sends it). */
function curlRequest(command: string, port: string): Omit<CurlSample, 'command' | 'shown'> {
  const words = shellWords(command);
  const headers: Record<string, string> = {};
  let path = '';
  let body: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-H') {
      const [name, ...value] = words[++i]!.split(':');
      headers[name!.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') body = words[++i]!;
    else if (word.startsWith('http')) {
      const url = new URL(word);
      if (url.port !== port) throw new Error(`README curl asks port ${url.port}, its serve line listens on ${port}`);
      path = url.pathname;
    } else if (word !== '-s') throw new Error(`README curl: unexpected word ${word}`);
  }
  if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return { path, headers, ...(body === undefined ? {} : { body }) };
}

/** The trace the README serves and its port: its `loopcost serve FILE --port P` line. */
export function servedTrace(readme: string): { file: string; port: string } {
  const line = /^loopcost serve (\S+) --port (\d+)$/m.exec(readme);
  if (!line) throw new Error('README: no `loopcost serve FILE --port P` line');
  return { file: line[1]!, port: line[2]! };
}

/** The curl lines of the ```text block after "With that server running", each with the answer shown. */
export function curlSamples(readme: string, port: string): CurlSample[] {
  const from = readme.indexOf('With that server running');
  const open = readme.indexOf('```text\n', from);
  const close = readme.indexOf('\n```', open + 1);
  if (from < 0 || open < 0 || close < 0) throw new Error('README: no ```text block after "With that server running"');
  const samples: CurlSample[] = [];
  let command = '';
  for (const line of readme.slice(open + '```text\n'.length, close).split('\n')) {
    if (line.startsWith('$ ')) command = line.slice(2);
    else if (command.endsWith('\\')) command = `${command.slice(0, -1).trimEnd()} ${line.trim()}`;
    else if (samples.at(-1)?.command === command) samples.at(-1)!.shown += line.startsWith(' ') ? line.slice(1) : `\n${line}`;
    else samples.push({ command, ...curlRequest(command, port), shown: line });
  }
  return samples;
}

/** Where `answer` departs from `shown` (its `...` standing for any text), or undefined when it reads as shown. */
export function departure(shown: string, answer: string): string | undefined {
  const pieces = shown.split(/,?\.\.\.,?/);
  if (pieces.length === 1) return answer === shown ? undefined : 'differs';
  if (!answer.startsWith(pieces[0]!)) return `does not start with ${pieces[0]}`;
  let at = pieces[0]!.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = answer.indexOf(piece, at);
    if (found < 0) return `has no ${piece} after …${answer.slice(Math.max(0, at - 60), at)}`;
    at = found + piece.length;
  }
  const last = pieces.at(-1)!;
  return answer.endsWith(last) && answer.length - last.length >= at ? undefined : `does not end with ${last}`;
}

/** What each curl of `readme`'s sample gets from an in-process server of its trace, against what it shows. */
export async function checkServeSample(readme: string): Promise<{ command: string; answer: string; departure?: string }[]> {
  const { file, port } = servedTrace(readme);
  // Named as the command line names it from the project (`../shared/…`), so each session's `source` reads the same.
  const traces = (await loadTraceFile(relative(process.cwd(), join(ROOT, file)))) as Trace[];
  const server = await startServer({ sources: { traces }, prices: loadPriceTable(), port: 0 });
  try {
    const out: { command: string; answer: string; departure?: string }[] = [];
    for (const sample of curlSamples(readme, port)) {
      const init = sample.body === undefined ? { headers: sample.headers } : { method: 'POST', headers: sample.headers, body: sample.body };
      const answer = (await (await fetch(`${server.url}${sample.path}`, init)).text()).trim();
      const wrong = departure(sample.shown, answer);
      out.push({ command: sample.command, answer, ...(wrong === undefined ? {} : { departure: wrong }) });
    }
    return out;
  } finally {
    await server.close();
  }
}

describe("README: serve's curl sample", () => {
  it('reads the sample as written: two requests, the chat answer and the sessions report', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const { port } = servedTrace(readme);
    const samples = curlSamples(readme, port);
    expect(samples.map((s) => [s.path, s.headers['x-loopcost-session'], s.body === undefined])).toEqual([
      ['/v1/chat/completions', 'demo', false],
      ['/loopcost/sessions', undefined, true],
    ]);
  });

  it('departure: `...` stands for left-out text, the rest in order, first and last pieces at the ends', () => {
    expect(departure('{"a":1,...,"c":3}', '{"a":1,"b":2,"c":3}')).toBeUndefined();
    expect(departure('{"a":1,...}', '{"a":1}')).toBeUndefined();
    expect(departure('{"a":{...}}', '{"a":{"x":1}}')).toBeUndefined();
    expect(departure('{"a":1,...,"c":4}', '{"a":1,"b":2,"c":3}')).toMatch(/end with/);
    expect(departure('{"c":3,...,"a":1}', '{"a":1,"b":2,"c":3}')).toMatch(/start with/);
    expect(departure('{"a":1,"c":3}', '{"a":1,"b":2,"c":3}')).toBe('differs');
  });

  it("is what serve answers today, through the README's own trace and prices", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const checked of await checkServeSample(readme)) {
      expect(checked.departure, `README's \`${checked.command}\` shows other than serve answers:\n${checked.answer}`).toBeUndefined();
    }
  });
});
