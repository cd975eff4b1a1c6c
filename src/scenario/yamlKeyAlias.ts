/**
 * Two YAML problems of a scenario file said in its own words, at its line and field, with what to do
 * (not the `yaml` package's words): a key given twice in one mapping (`Map keys must be unique`), said as
 * the JSON readers say it (src/io/jsonText.ts); and aliases past the limit (a "billion laughs" ladder), at
 * the line of the first alias past it.
 */
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { InputIssue } from '../errors.js';
import type { LinePosition, YamlParseProblem } from '../io/yamlErrors.js';
import { shownName } from '../shownName.js';
import { fieldPath } from '../fieldPath.js';
import { walkYaml, type YamlPath } from './yamlWalk.js';

interface At {
  yaml: typeof Yaml;
  file: string;
  linePos: LinePosition;
}

/** The path of the map key whose text starts at `offset`, in document order (keys inside a key not looked in); undefined when none does. */
function keyPathAt(yaml: typeof Yaml, doc: Document, offset: number): YamlPath | undefined {
  let found: YamlPath | undefined;
  walkYaml(doc, { yaml, intoKeys: false }, ({ node, path, isKey }) => {
    if (isKey && node.range?.[0] === offset) found = path;
    return found !== undefined;
  });
  return found;
}

/** The issue for the document's first error when it is a key given twice; undefined for any other error. */
export function duplicateKeyIssue(doc: Document, errors: readonly YamlParseProblem[], at: At): InputIssue | undefined {
  const first = errors[0];
  if (first?.code !== 'DUPLICATE_KEY' || first.pos === undefined) return undefined;
  const path = keyPathAt(at.yaml, doc, first.pos[0]);
  if (path === undefined) return undefined;
  const key = String(path[path.length - 1]);
  return {
    file: at.file,
    line: at.linePos(first.pos[0]).line,
    field: fieldPath(path),
    code: 'duplicate_key',
    message: `key "${shownName(key)}" is given twice in the same mapping`,
    hint: 'keep the one you mean and delete the other: YAML readers differ on which one counts',
  };
}

/**
 * The issue for aliases past `limit` expansions: the document is read again with each alias node watched
 * (its own toJSON, on this document only), and the first whose expansion the package refuses is named.
 */
export function aliasLimitIssue(doc: Document, limit: number, at: At): InputIssue {
  let past: YamlNode | undefined;
  at.yaml.visit(doc, {
    Alias(_key, node) {
      const own = Object.getPrototypeOf(node).toJSON as (this: unknown, ...args: unknown[]) => unknown;
      Object.defineProperty(node, 'toJSON', {
        configurable: true,
        value(this: YamlNode, ...args: unknown[]) {
          try {
            return own.apply(this, args);
          } catch (error) {
            past ??= this;
            throw error;
          }
        },
      });
    },
  });
  try {
    doc.toJS({ maxAliasCount: limit });
  } catch {
    // Expected: the limit is passed again, now with the alias watched.
  }
  const range = past?.range;
  return {
    file: at.file,
    ...(range ? { line: at.linePos(range[0]).line } : {}),
    code: 'too_many_aliases',
    message: `uses YAML aliases past the limit: ${range ? 'this alias takes' : 'its aliases take'} the file past ${limit} alias expansions`,
    hint: 'write the values out instead of aliasing them (or alias fewer of them): no scenario needs this many copies',
  };
}
