/**
 * What differs between a shard and the first shard merge reads, when they are no shards of one sweep: the
 * fields, each with both values (`inputs.scenarios[0].seed is 5 here, 1 in s1.json`). The fields that made
 * the sweep (tool, grid, settings, prices, inputs, target) are named first; what the runs gave (the
 * no-brakes baseline, notes, warnings, context curves) only when none of those differs, for it follows
 * from them.
 */
import type { InputIssue } from '../../errors.js';
import { fieldPath } from '../../fieldPath.js';
import type { SweepHeader, SweepShard } from '../../report/sweepReport.js';

/** What the runs gave: it differs when what made the sweep does. */
const RESULT_FIELDS: ReadonlySet<string> = new Set(['contextTokens', 'noBrakes', 'notes', 'warnings']);
/** Most differing fields a message names; the rest are counted. */
const FIELDS_SHOWN = 3;
/** Longest value a message shows (JSON, or a text before quoting), cut with `…`. */
const VALUE_CHARS = 80;

interface Difference {
  field: string;
  ours: unknown;
  theirs: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where two JSON values differ, leaf by leaf (an array of another length, a value of another kind: that field whole). */
export function differingFields(ours: unknown, theirs: unknown, path: readonly PropertyKey[] = []): Difference[] {
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) return ours.flatMap((value, i) => differingFields(value, theirs[i], [...path, i]));
  if (isObject(ours) && isObject(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])];
    return keys.flatMap((key) => differingFields(ours[key], theirs[key], [...path, key]));
  }
  return JSON.stringify(ours) === JSON.stringify(theirs) ? [] : [{ field: fieldPath(path), ours, theirs }];
}

/** Characters of the common start kept before the first that differs, when two long texts are cut there. */
const LEAD_CHARS = 20;

/** `text` cut to VALUE_CHARS (`…` marks a cut); `from`: where to start (`…` marks the start cut). */
function cut(text: string, from = 0): string {
  const start = from > 0 ? `…${text.slice(from)}` : text;
  return start.length > VALUE_CHARS ? `${start.slice(0, VALUE_CHARS - 1)}…` : start;
}

/** Both values in words (JSON, a text quoted), two long texts from a little before where they first differ. */
function bothTexts(ours: unknown, theirs: unknown): [string, string] {
  const json = (value: unknown) => (value === undefined ? 'absent' : cut(JSON.stringify(value)));
  if (typeof ours !== 'string' || typeof theirs !== 'string') return [json(ours), json(theirs)];
  let same = 0;
  while (same < ours.length && ours[same] === theirs[same]) same++;
  const from = Math.max(ours.length, theirs.length) > VALUE_CHARS && same > LEAD_CHARS ? same - LEAD_CHARS : 0;
  return [JSON.stringify(cut(ours, from)), JSON.stringify(cut(theirs, from))];
}

/** The header's and the shard's counts' differences, what made the sweep first (the results only when nothing else differs). */
function shardDifferences(ours: { header: SweepHeader; shard: SweepShard }, theirs: { header: SweepHeader; shard: SweepShard }): Difference[] {
  const all = [
    ...differingFields(ours.header, theirs.header),
    ...differingFields({ of: ours.shard.of, configurations: ours.shard.configurations }, { of: theirs.shard.of, configurations: theirs.shard.configurations }, ['shard']),
  ];
  const made = all.filter((difference) => !RESULT_FIELDS.has(difference.field.split(/[.[]/)[0]!));
  return made.length > 0 ? made : all;
}

/** The issue of a shard of another sweep than the first (`theirs`, read from `first`), naming what differs; none when they are of one sweep. */
export function otherSweepIssue(file: string, ours: { header: SweepHeader; shard: SweepShard }, first: { file: string; header: SweepHeader; shard: SweepShard }): InputIssue | undefined {
  const differences = shardDifferences(ours, first);
  if (differences.length === 0) return undefined;
  const said = differences.slice(0, FIELDS_SHOWN).map(({ field, ours: here, theirs }) => {
    const [hereText, thereText] = bothTexts(here, theirs);
    return `${field} is ${hereText} here, ${thereText} in ${first.file}`;
  });
  const more = differences.length > FIELDS_SHOWN ? `; and ${differences.length - FIELDS_SHOWN} more field${differences.length - FIELDS_SHOWN === 1 ? '' : 's'}` : '';
  return {
    file,
    code: 'bad_shard',
    message: `is a shard of another sweep than ${first.file}: ${said.join('; ')}${more}`,
    hint: 'make every shard with the same loopcost sweep command (inputs, flags, --seed, prices, loopcost version) but its --shard, then merge them',
  };
}
