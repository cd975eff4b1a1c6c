/**
 * YAML tags a scenario file may carry: the core schema's only (`!!str`, `!!int`, `!!float`, `!!bool`,
 * `!!null`, `!!map`, `!!seq`, and the non-specific `!`). Any other (`!!js/function "…"`, `!custom x`,
 * `!!binary`, `!!timestamp`) is refused at its line and field: the `yaml` package reads a tag it does
 * not know as the plain string under it, with a warning nobody sees, so the file would run as if the
 * tag were not there; and a tag a file carries is meant to change what the value is. The quick reading
 * (fastYaml.ts) leaves every file with a `!` to `yaml`, so this sees every tag.
 */
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
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
