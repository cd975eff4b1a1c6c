/**
 * Reading a cassette's YAML safely, with the limits every reader applies (src/io/limits.ts): at most
 * MAX_YAML_ALIASES alias expansions (a "billion laughs" ladder of aliases is refused, not expanded) and
 * at most MAX_NESTING_DEPTH levels of nesting (a document nested deeper than the parser can follow is
 * refused too). Each refusal is a UserError naming the file; the lines of interactions stay available
 * for messages. Ruby VCR's `!binary` tag (Psych's name for base64 bytes) is read as YAML's `!!binary`:
 * bytes, decoded by cassetteBody.ts like any binary body. No other tag is given a meaning.
 */
import { isSeq, LineCounter, parseDocument, type Document, type ScalarTag, type Tags } from 'yaml';
import { UserError } from '../../errors.js';
import { MAX_NESTING_DEPTH, MAX_YAML_ALIASES, pathPastDepth } from '../../io/limits.js';
import { isStackOverflow, yamlEscapeError } from '../../io/yamlErrors.js';
import { isJsonObject } from '../common/jsonValue.js';
import { shortDepthPath } from '../../scenario/depthCheck.js';
import { duplicateKeyIssue } from '../../scenario/yamlKeyAlias.js';
import * as Yaml from 'yaml';

/** The key of the interaction list: vcrpy's `interactions`, Ruby VCR's `http_interactions`. */
export type InteractionsKey = 'interactions' | 'http_interactions';

export interface CassetteYaml {
  data: unknown;
  /** The top-level key holding the interactions (`interactions` when neither is there). */
  listKey: InteractionsKey;
  /** 1-based line of interaction i. */
  lineOf(i: number): number | undefined;
  /** Line of a node inside interaction i (e.g. request.uri), else `fallback`. */
  lineIn(i: number, keys: (string | number)[], fallback: number | undefined): number | undefined;
  /** Line of the node an issue's field path names (`interactions[0].response.parsed_body.usage.x`), when the YAML holds it. */
  lineOfField(field: string): number | undefined;
}

/** The keys of a field path: `a.b[0].c` → a, b, 0, c (a key holding a dot or a bracket finds no node: no line). */
function fieldKeys(field: string): (string | number)[] {
  return [...field.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((m) => (m[1] === undefined ? m[0] : Number(m[1])));
}

function tooDeep(path: string, where?: string): UserError {
  return new UserError({
    file: path,
    field: where ?? 'interactions',
    code: 'too_deep',
    message: `the YAML nests deeper than ${MAX_NESTING_DEPTH} levels${where !== undefined ? '' : ' (more than the parser can follow)'}`,
    hint: 'no recording nests this deep; the file is damaged or hostile',
  });
}

/** The YAML 1.1 tags plus Ruby's `!binary`, read by the same resolver as `!!binary`. */
function withRubyBinary(tags: Tags): Tags {
  const binary = tags.find((t): t is ScalarTag => typeof t === 'object' && t.tag === 'tag:yaml.org,2002:binary');
  return binary === undefined ? tags : [...tags, { ...binary, tag: '!binary' }];
}

function parse(content: string, path: string, lineCounter: LineCounter): Document.Parsed {
  try {
    return parseDocument(content, { schema: 'yaml-1.1', customTags: withRubyBinary, lineCounter, prettyErrors: false });
  } catch (err) {
    if (isStackOverflow(err)) throw tooDeep(path);
    throw yamlEscapeError(err, path, 'the cassette looks damaged: record it again') ?? err;
  }
}

function toData(doc: Document.Parsed, path: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    if (isStackOverflow(err)) throw tooDeep(path);
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw new UserError({
        file: path,
        code: 'too_many_aliases',
        message: `the YAML expands aliases past the limit of ${MAX_YAML_ALIASES} (an alias "bomb" would take unbounded memory)`,
        hint: 'recorders write cassettes without chains of YAML aliases; re-record or expand the aliases',
      });
    }
    throw err;
  }
}

export function readCassetteYaml(content: string, path: string): CassetteYaml {
  const lineCounter = new LineCounter();
  const doc = parse(content, path, lineCounter);
  if (doc.errors.length > 0) {
    // A key given twice is named at its own field, as a scenario file's is (one rule: src/scenario/yamlKeyAlias.ts).
    const twice = duplicateKeyIssue(doc, doc.errors, { yaml: Yaml, file: path, linePos: (offset) => lineCounter.linePos(offset) });
    if (twice !== undefined) throw new UserError(twice);
    const e = doc.errors[0]!;
    const pos = e.pos?.[0] !== undefined ? lineCounter.linePos(e.pos[0]).line : undefined;
    throw new UserError({
      file: path,
      ...(pos !== undefined ? { line: pos } : {}),
      field: 'interactions',
      code: 'invalid_yaml',
      message: `not valid YAML (${e.message.split('\n')[0]})`,
      hint: 'a VCR cassette is a YAML file with an interactions: list',
    });
  }
  const data = toData(doc, path);
  const deep = pathPastDepth(data);
  if (deep !== undefined) throw tooDeep(path, shortDepthPath(deep));
  const lineOfNode = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return range ? lineCounter.linePos(range[0]).line : undefined;
  };
  const listKey: InteractionsKey = isJsonObject(data) && !('interactions' in data) && 'http_interactions' in data ? 'http_interactions' : 'interactions';
  const seq = doc.getIn([listKey], true);
  return {
    data,
    listKey,
    lineOf: (i) => (isSeq(seq) ? lineOfNode(seq.items[i]) : undefined),
    lineIn: (i, keys, fallback) => lineOfNode(doc.getIn([listKey, i, ...keys], true)) ?? fallback,
    lineOfField: (field) => lineOfNode(doc.getIn(fieldKeys(field), true)),
  };
}
