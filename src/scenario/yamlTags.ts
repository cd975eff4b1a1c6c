/**
 * YAML tags a scenario file may carry: the core schema's only (`!!str`, `!!int`, `!!float`, `!!bool`,
 * `!!null`, `!!map`, `!!seq`, and the non-specific `!`). Any other (`!!js/function "…"`, `!custom x`,
 * `!!binary`, `!!timestamp`) is refused at its line and field: the `yaml` package reads a tag it does
 * not know as the plain string under it, with a warning nobody sees, so the file would run as if the
 * tag were not there; and a tag a file carries is meant to change what the value is. The quick reading
 * (fastYaml.ts) leaves every file with a `!` to `yaml`, so this sees every tag.
 *
 * A core tag is read as it says (coreTagIssues), quoted or not: `!!int "20"` and `!!float 20` are 20,
 * `!!str 20` is the string "20" (and where a number belongs, the refusal names the tag: issueWords.ts).
 * `yaml` reads a tagged scalar its rule for the tag does not take as the string under it, with a warning
 * nobody sees: `!!float 20`, which YAML 1.2's core schema reads as 20 (`yaml`'s float rule wants a `.`),
 * is read here by the core schema's float rule; any other (`!!int 2.5`, `!!bool 20`, `!!map 20`) is refused
 * at its line and field, never read as a string the tag did not say.
 */
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode, Scalar } from 'yaml';
import type { InputIssue } from '../errors.js';
import type { LinePosition } from '../io/yamlErrors.js';
import { fieldPath } from '../fieldPath.js';
import { walkYaml, type YamlPath } from './yamlWalk.js';

const CORE = 'tag:yaml.org,2002:';
const CORE_TAGS = new Set(['!', ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => CORE + name)]);

/** A tag as a file writes it: `!!js/function`, not `tag:yaml.org,2002:js/function`. */
function written(tag: string): string {
  return tag.startsWith(CORE) ? `!!${tag.slice(CORE.length)}` : tag;
}

interface Found {
  node: YamlNode;
  path: YamlPath;
}

/** Every node of the document with a tag the core schema does not have (keys' too), in document order; at most `limit`. */
function unknownTags(doc: Document, { yaml, limit }: { yaml: typeof Yaml; limit: number }): Found[] {
  const found: Found[] = [];
  walkYaml(doc, { yaml, intoKeys: true }, ({ node, path }) => {
    if (found.length < limit && node.tag !== undefined && !CORE_TAGS.has(node.tag)) found.push({ node, path });
    return found.length >= limit;
  });
  return found;
}

/** An issue for each tag past the core schema's (none when there is none), at its line and field. */
export function unknownTagIssues(doc: Document, at: { yaml: typeof Yaml; file: string; linePos: LinePosition; limit: number }): InputIssue[] {
  return unknownTags(doc, at).map(({ node, path }) => {
    const field = fieldPath(path);
    return {
      file: at.file,
      ...(node.range ? { line: at.linePos(node.range[0]).line } : {}),
      ...(field === '' ? {} : { field }),
      code: 'unknown_yaml_tag',
      message: `has the YAML tag ${written(node.tag!)}, which a scenario file may not carry (only the core tags: !!str, !!int, !!float, !!bool, !!null, !!map, !!seq)`,
      hint: 'remove the tag and write the value itself; see docs/scenarios.md',
    };
  });
}

/** YAML 1.2's core schema float, as the spec writes it (`20`, `2.5`, `.5`, `1e3`), and its infinities and not-a-number. */
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const CORE_INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;
const CORE_NAN = /^\.(?:nan|NaN|NAN)$/;

/** `!!float` text as the core schema reads it; undefined when it reads none. */
function coreFloat(text: string): number | undefined {
  if (CORE_FLOAT.test(text)) return parseFloat(text);
  if (CORE_INFINITY.test(text)) return text.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return CORE_NAN.test(text) ? NaN : undefined;
}

/** What each scalar core tag takes, for the refusal of a value it does not: `is not …`. */
const SCALAR_TAKES: Readonly<Record<string, { read: (value: unknown) => boolean; words: string }>> = {
  int: { read: (value) => typeof value === 'number', words: 'a whole number as YAML writes one (20, -3, 0x14, 0o24)' },
  float: { read: (value) => typeof value === 'number', words: 'a number as YAML writes one (20, 2.5, 1e3, .inf)' },
  bool: { read: (value) => typeof value === 'boolean', words: 'true or false' },
  null: { read: (value) => value === null, words: 'null (null, ~ or nothing)' },
  str: { read: () => true, words: 'a string' },
};

/**
 * What is wrong with a core-tagged node (`name`: the tag's, `int`), said after "has the YAML tag !!int, but";
 * undefined when the tag fits. A `!!float` scalar `yaml` left a string is given its core-schema number here.
 */
function tagMisfit(node: YamlNode, name: string, { yaml, text }: { yaml: typeof Yaml; text: string }): string | undefined {
  if (name === 'map' || name === 'seq') {
    const fits = name === 'map' ? yaml.isMap(node) : yaml.isSeq(node);
    return fits ? undefined : `its value is not ${name === 'map' ? 'a mapping' : 'a list'}`;
  }
  if (!yaml.isScalar(node)) return `its value is ${yaml.isMap(node) ? 'a mapping' : 'a list'}, not ${SCALAR_TAKES[name]!.words}`;
  const scalar = node as Scalar;
  if (name === 'float' && typeof scalar.value === 'string') {
    const value = coreFloat(scalar.value);
    if (value !== undefined) scalar.value = value;
  }
  if (SCALAR_TAKES[name]!.read(scalar.value)) return undefined;
  const written = scalar.range ? text.slice(scalar.range[0], scalar.range[1]) : JSON.stringify(scalar.value);
  return `${written} is not ${SCALAR_TAKES[name]!.words}`;
}

/**
 * Every node with a core tag (`!!int`, …; not the non-specific `!`) read as its tag says, and an issue
 * for each whose value the tag does not take (none when there is none), at its line and field.
 */
export function coreTagIssues(doc: Document, at: { yaml: typeof Yaml; text: string; file: string; linePos: LinePosition; limit: number }): InputIssue[] {
  const issues: InputIssue[] = [];
  walkYaml(doc, { yaml: at.yaml, intoKeys: true }, ({ node, path }) => {
    const name = node.tag?.startsWith(CORE) ? node.tag.slice(CORE.length) : undefined;
    const misfit = name === undefined || !CORE_TAGS.has(node.tag!) ? undefined : tagMisfit(node, name, at);
    if (misfit !== undefined) {
      const field = fieldPath(path);
      issues.push({
        file: at.file,
        ...(node.range ? { line: at.linePos(node.range[0]).line } : {}),
        ...(field === '' ? {} : { field }),
        code: 'yaml_tag_mismatch',
        message: `has the YAML tag ${written(node.tag!)}, but ${misfit}`,
        hint: 'write the value the tag says, or remove the tag; see docs/scenarios.md',
      });
    }
    return issues.length >= at.limit;
  });
  return issues;
}

/** The tag written on the scalar at `path` (`!!str`, `!`), for a message about its value; undefined when it has none. */
export function tagAt(doc: Document, path: readonly PropertyKey[]): string | undefined {
  const node = doc.getIn(path as unknown[], true) as YamlNode | undefined;
  return node?.tag === undefined ? undefined : written(node.tag);
}
