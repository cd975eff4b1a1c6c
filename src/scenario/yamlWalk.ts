/**
 * The one walk over the nodes of its `yaml` document with each node's path: what yamlKeyAlias.ts
 * (a key given twice) and yamlTags.ts (a tag past the core schema's) look through, and each node's field
 * written by src/fieldPath.ts. Pure: no node:* (`yaml` is passed in: load.ts requires it on first use).
 */
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';

/** A path in a YAML document: map keys (as text) and list indexes. */
export type YamlPath = (string | number)[];

/** A node the walk reaches: its path (a map key's is its value's), and whether it is a map key. */
export interface YamlVisit {
  node: YamlNode;
  path: YamlPath;
  isKey: boolean;
}

/**
 * Every node of `doc` in document order with its path, each map key just before its value; the nodes
 * inside a key that is itself a mapping or list (`? {a: 1}`) only with `intoKeys`. The walk stops once
 * `visit` returns true.
 */
export function walkYaml(doc: Document, { yaml, intoKeys }: { yaml: typeof Yaml; intoKeys: boolean }, visit: (at: YamlVisit) => boolean): void {
  let stopped = false;
  const walk = (node: unknown, path: YamlPath, isKey: boolean): void => {
    if (stopped || !yaml.isNode(node)) return;
    stopped = visit({ node, path, isKey });
    if (isKey && !intoKeys) return;
    if (yaml.isMap(node)) {
      for (const pair of node.items) {
        const key = yaml.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.key, [...path, key], true);
        walk(pair.value, [...path, key], false);
      }
    } else if (yaml.isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i], false));
  };
  walk(doc.contents, [], false);
}
