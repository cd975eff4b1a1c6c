/** A scenario as a YAML file: comments on top, lists of numbers on one line. */
import { Document, isScalar, visit } from 'yaml';
import type { ScenarioFile } from './schema.js';

export function scenarioYaml(scenario: ScenarioFile, comments: readonly string[] = []): string {
  const doc = new Document(scenario, { aliasDuplicateObjects: false });
  if (comments.length > 0) doc.commentBefore = comments.map((line) => ` ${line}`).join('\n');
  visit(doc, {
    Seq(_, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
