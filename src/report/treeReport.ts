/**
 * Reports of session trees replayed under one budget (`replay --tree`): per tree, one row per agent and
 * one for the tree, which agent a brake stopped and why; settings (the tree's brakes and the per-agent
 * limits) and the price table named; JSON, CSV (one row per agent and per tree) or a table.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { LOOPCOST_VERSION } from '../version.js';
import { picoToUsd } from '../money.js';
import { priceSourceColumns, PRICE_SOURCE_COLUMNS } from '../pricing/source.js';
import type { PricesRecord } from './pricedModels.js';
import type { SubagentLimits } from '../tree/engine.js';
import type { AgentResult, TreeResult, TreeTotals } from '../tree/result.js';
import { formatCsv } from './csv.js';
import { formatUsdNumber } from './money.js';
import { settingsColumns, SETTINGS_COLUMNS, subagentLimitsSpec, type ReportSettings } from './settings.js';
import { formatTable, type Cell, type Column } from './table.js';
import { displayWidth, printableText, tokenCount } from './text.js';
import { labelledLine, reportFooter, type ReportView } from './view.js';
import { unrecordedAgentsWarnings, type ReportWarning } from './warnings.js';
import { FIGURE_KEYS, strategyFigureRecord, type StrategyFigureRecord } from './strategyFigureNames.js';
import { addStrategyFigures, type StrategyFigures } from '../loop/types.js';
import { counted } from '../plural.js';
import { maxOf } from '../metrics/extremes.js';
import { treeLines } from './treeLines.js';
import { treeOvershootLine, treeOvershootPico } from './treeOvershoot.js';
import type { FalseStopFigures } from './replayFalseStops.js';
import { treeFalseStopsLine } from './treeFalseStops.js';
import { treeSummary, treeSummaryLines, type TreeSummary } from './treeSummary.js';
import type { SubagentFalseStop } from '../tree/sessionStop.js';

/** `subagent-max-steps=2,subagent-max-cost=0.05`: the per-agent limits under their flags' names (subagentLimitsSpec); `none` without them. */
export function subagentSpec(limits: SubagentLimits | undefined): string {
  return subagentLimitsSpec(limits);
}

/**
 * A sub-agent a brake stopped whose stop ends no call of its parent: it ran in the background (its Task
 * call had returned at launch), or it is unlinked (its parentToolCallId is no call of its parent).
 */
function stoppedEndingNoCall(agent: Pick<AgentResult, 'background' | 'unlinked' | 'stop'>): boolean {
  return (agent.background === true || agent.unlinked === true) && agent.stop?.by !== undefined && agent.stop.by !== 'parent';
}

/** Recorded trees are replayed open loop: what an agent did after a sub-agent was stopped is as recorded. */
export function treeOpenLoopWarning(trees: readonly TreeResult[]): ReportWarning[] {
  const cut = trees.filter((tree) => tree.agents.some((agent) => agent.endedToolCall !== undefined || stoppedEndingNoCall(agent))).length;
  return [
    {
      code: 'open_loop',
      message:
        `recorded session trees are replayed as recorded (open loop): brakes decide where each agent stops, but calls made after a stop elsewhere in the tree are the recorded ones` +
        (cut > 0 ? ` (in ${counted(cut, 'tree')} a sub-agent was stopped and its parent went on as recorded, not reacting to the stop)` : ''),
    },
  ];
}

/** One warning per tree that started agents with no recording among the inputs (TreeResult.unrecorded): its totals leave them out. */
export function treeUnrecordedWarnings(trees: readonly TreeResult[]): ReportWarning[] {
  return unrecordedAgentsWarnings(trees.map((tree) => ({ sessionId: tree.sessionId, agents: tree.unrecorded ?? [] })));
}

export interface TreeAgentRecord extends StrategyFigureRecord {
  sessionId: string;
  agent: string;
  kind: string;
  parent?: string;
  parentToolCallId?: string;
  models: string;
  parts: number;
  partsStarted: number;
  calls: number;
  recordedCalls: number;
  steps: number;
  compactionCalls: number;
  failedCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  costUsd: number;
  elapsedSeconds: number;
  stopReason: string;
  stopDetail: string;
  /** `tree` | `subagent` | `own` | `parent`; empty when the agent ended by itself. */
  stoppedBy: string;
  /** A stopped sub-agent's parent tool call, ended with its stop reason. */
  endedToolCall?: string;
  /** It ran in the background: its parent's Task call returned at launch, and its stop ends none (no `endedToolCall`). */
  background?: true;
  /** Its parentToolCallId is no tool call of its parent (the tree's note says so): its start is unknown, and its stop ends none. */
  unlinked?: true;
}

export interface TreeRecord {
  sessionId: string;
  stopReason: string;
  stopDetail: string;
  stopped: { agent: string; reason: string; by: string; detail: string }[];
  totals: Omit<TreeAgentRecord, 'sessionId' | 'agent' | 'kind' | 'parent' | 'parentToolCallId' | 'stopReason' | 'stopDetail' | 'stoppedBy' | 'endedToolCall' | 'background' | 'unlinked' | 'partsStarted'>;
  agents: TreeAgentRecord[];
  /** The tree's own notes (how its agents were linked: tree notes) first, then its agents' import notes (`agent: note`). */
  notes: string[];
  /** How many of `notes`, the first, are the tree's own; the rest are import notes. */
  treeNotes: number;
  /** Spend past the tree's budget (treeOvershootPico); only under a budget brake (`--max-cost`). */
  overshootUsd?: number;
  /**
   * Its main agent completed, but a brake stopped a sub-agent that completes in its recording
   * (tree/sessionStop.ts): the session counts as stopped with that stop reason (the summary's, sweep's,
   * project's); absent otherwise.
   */
  countedAs?: { stopReason: string; agent: string; stoppedBy: string };
}

export interface TreeReport {
  tool: { name: 'loopcost'; version: string };
  /** The common settings (ReportSettings, as every command's JSON gives them), then the tree's own; `spec` the common ones again (kept). */
  settings: ReportSettings & { spec: ReportSettings; subagent: string; tree: string };
  /** Replay's prices block (pricedModels.ts pricesRecord): the table, `source`, `models` (each run of a tree priced once), `days` and `note`. */
  prices: PricesRecord;
  trees: TreeRecord[];
  /** The flat replay's summary, each tree one run (treeSummary.ts), the tree's own figures, and the false-stop figures (treeFalseStops.ts) with a brake on. */
  summary: TreeSummary;
  warnings: ReportWarning[];
}

function figures(t: TreeTotals & { recordedCalls: number; parts: number }, models: string) {
  return {
    models,
    parts: t.parts,
    calls: t.calls,
    recordedCalls: t.recordedCalls,
    steps: t.steps,
    compactionCalls: t.compactionCalls,
    failedCalls: t.failedCalls,
    inputTokens: t.inputTokens,
    cachedInputTokens: t.cachedInputTokens,
    cacheWriteTokens: t.cacheWriteTokens,
    outputTokens: t.outputTokens,
    costUsd: picoToUsd(t.costPico),
    elapsedSeconds: t.elapsedMs / 1000,
    // What the context strategy did (absent where 0).
    ...strategyFigureRecord(addStrategyFigures<Partial<StrategyFigures>>({}, t)),
  };
}

function agentRow(sessionId: string, agent: AgentResult): TreeAgentRecord {
  const record: TreeAgentRecord = {
    sessionId,
    agent: agent.agentId,
    kind: agent.kind,
    ...figures(agent, agent.models.join(' ')),
    partsStarted: agent.partsStarted,
    stopReason: agent.stop?.reason ?? '',
    stopDetail: agent.stop?.detail ?? '',
    stoppedBy: agent.stop?.by ?? '',
  };
  if (agent.parentAgentId !== undefined) record.parent = agent.parentAgentId;
  if (agent.parentToolCallId !== undefined) record.parentToolCallId = agent.parentToolCallId;
  if (agent.endedToolCall) record.endedToolCall = `${agent.endedToolCall.agentId}/${agent.endedToolCall.toolCallId} ended with ${agent.endedToolCall.reason}`;
  if (agent.background) record.background = true;
  if (agent.unlinked) record.unlinked = true;
  return record;
}

export function treeRecord(tree: TreeResult, brakes?: Pick<BrakeConfig, 'maxCostPico'>, subagentFalseStop?: SubagentFalseStop): TreeRecord {
  const recordedCalls = tree.agents.reduce((sum, agent) => sum + agent.recordedCalls, 0);
  const parts = tree.agents.reduce((sum, agent) => sum + agent.parts, 0);
  const models = [...new Set(tree.agents.flatMap((agent) => agent.models))].join(' ');
  return {
    sessionId: tree.sessionId,
    stopReason: tree.stopReason,
    stopDetail: tree.stopDetail,
    stopped: tree.stopped.map((stop) => ({ agent: stop.agentId, reason: stop.reason, by: stop.by ?? '', detail: stop.detail })),
    totals: figures({ ...tree.totals, recordedCalls, parts }, models),
    agents: tree.agents.map((agent) => agentRow(tree.sessionId, agent)),
    notes: [...tree.notes, ...new Set(tree.agents.flatMap((agent) => agent.notes.map((note) => `${agent.agentId}: ${note}`)))],
    treeNotes: tree.notes.length,
    ...(brakes?.maxCostPico === undefined ? {} : { overshootUsd: picoToUsd(treeOvershootPico(tree.totals, brakes)) }),
    ...(subagentFalseStop === undefined ? {} : { countedAs: { stopReason: subagentFalseStop.reason, agent: subagentFalseStop.agentId, stoppedBy: subagentFalseStop.by ?? '' } }),
  };
}

export function buildTreeReport(args: {
  trees: readonly TreeResult[];
  spec: ReportSettings;
  brakes: BrakeConfig;
  /** Each tree's own brakes, where they differ tree by tree (`--preset recorded`: its recordings'), in `trees`' order; else `brakes` for every tree. */
  treeBrakes?: readonly Pick<BrakeConfig, 'maxCostPico'>[];
  subagent?: SubagentLimits;
  /** The prices block (pricedModels.ts pricesRecord). */
  prices: PricesRecord;
  warnings: readonly ReportWarning[];
  /** The trees' false stops against their no-brake trees (treeFalseStops.ts), when a brake is on. */
  falseStops?: FalseStopFigures;
  /** Each tree's sub-agent a brake stopped that completes in its recording, its main agent completed (tree/sessionStop.ts): what its session counts as; in `trees`' order. */
  subagentFalseStops?: readonly (SubagentFalseStop | undefined)[];
}): TreeReport {
  // Each tree's overshoot past its own budget (under --preset recorded, the one its recordings state).
  const brakesOf = (i: number) => args.treeBrakes?.[i] ?? args.brakes;
  return {
    tool: { name: 'loopcost', version: LOOPCOST_VERSION },
    settings: { ...args.spec, spec: args.spec, tree: 'the brakes bind the totals of every agent of a session tree; per-call brakes (context window, repeat, same error, backtracks) each run', subagent: subagentSpec(args.subagent) },
    prices: args.prices,
    trees: args.trees.map((tree, i) => treeRecord(tree, brakesOf(i), args.subagentFalseStops?.[i])),
    summary: treeSummary(args.trees, { brakesOf, ...(args.subagentFalseStops === undefined ? {} : { subagentFalseStops: args.subagentFalseStops }), ...(args.falseStops === undefined ? {} : { falseStops: args.falseStops }) }),
    warnings: [...args.warnings],
  };
}

const TABLE_COLUMNS: Column[] = [
  { header: 'agent', shrink: true },
  { header: 'parent', shrink: true, minWidth: 6 },
  { header: 'model', shrink: true },
  { header: 'calls', align: 'right' },
  { header: 'steps', align: 'right' },
  { header: 'compactions', align: 'right' },
  { header: 'prompt tokens', align: 'right' },
  { header: 'output tokens', align: 'right' },
  { header: 'cost', align: 'right' },
  { header: 'stop', shrink: true },
];

/**
 * `budget (tree)`: the stop reason and which check (tree, limit, own, parent) stopped the agent; `bg` for one
 * that ran in the background (`budget (tree, bg)`: short, as the column is cut first; a line under the table says it in words).
 */
function stopCell(record: Pick<TreeAgentRecord, 'stopReason' | 'stoppedBy' | 'background'>): string {
  if (record.stopReason === '') return record.background ? '- (bg)' : '-';
  const marks = [...(record.stoppedBy === '' ? [] : [record.stoppedBy === 'subagent' ? 'limit' : record.stoppedBy]), ...(record.background ? ['bg'] : [])];
  return marks.length === 0 ? record.stopReason : `${record.stopReason} (${marks.join(', ')})`;
}

function tableRow(name: string, parent: string, r: TreeRecord['totals'], stop: string, modelName: (model: string) => string): Cell[] {
  const models = r.models.split(' ');
  const model = models.length > 1 ? `${models.length} models` : modelName(r.models);
  return [name, parent, model, `${r.calls}/${r.recordedCalls}`, r.steps, r.compactionCalls, tokenCount(r.inputTokens), tokenCount(r.outputTokens), formatUsdNumber(r.costUsd), stop];
}

/** A model name's snapshot date (`-20250929`, `-2024-08-06`, `@20240620`): the part a narrow table drops first. */
const MODEL_DATE = /[-@](\d{8}|\d{4}-\d{2}-\d{2})$/;

/** `claude-sonnet-4-5…` for `claude-sonnet-4-5-20250929`: the family kept, the cut marked (the full name is in JSON and CSV). */
export function modelWithoutDate(model: string): string {
  return MODEL_DATE.test(model) ? `${model.replace(MODEL_DATE, '')}…` : model;
}

/**
 * A tree's agent rows and its tree row. With --wide nothing is cut (the table may run past the width);
 * else, when the table does not fit whole, model names lose their snapshot date first (the family stays
 * readable), then the table's own rule cuts what still does not fit in the middle.
 */
function treeTable(tree: TreeRecord, view: ReportView): string {
  const rows = (modelName: (model: string) => string): Cell[][] => [
    ...tree.agents.map((agent) => tableRow(agent.agent, agent.parent ?? '-', agent, stopCell(agent), modelName)),
    tableRow('tree', '-', tree.totals, tree.stopReason, modelName),
  ];
  const whole = formatTable(TABLE_COLUMNS, rows((model) => model), { maxWidth: Infinity });
  if (view.wide || maxOf(whole.split('\n').map(displayWidth)) <= view.width) return whole;
  return formatTable(TABLE_COLUMNS, rows(modelWithoutDate), { maxWidth: view.width });
}

/** One block per tree: a row per agent, a row for the tree, then who was stopped and why. */
export function renderTreeTable(report: TreeReport, view: ReportView): string {
  let text = '';
  for (const tree of report.trees) {
    text += labelledLine(printableText(`session ${tree.sessionId}: ${tree.stopReason}${tree.stopDetail ? ` (${tree.stopDetail})` : ''}`), view.width);
    text += treeTable(tree, view);
    text += treeLines(tree, view) + '\n';
  }
  const s = report.summary;
  text += `${counted(s.trees, 'session tree')}, ${counted(s.agents, 'agent')}, ${counted(s.calls, 'call')}, ${formatUsdNumber(s.costUsd)}; ${counted(s.stoppedAgents, 'agent')} stopped by a brake\n`;
  text += treeSummaryLines(s, view.width) + treeFalseStopsLine(s);
  // Overshoot only under a budget brake (each tree's `overshootUsd` then), as the flat replay says it.
  if (report.trees.some((tree) => tree.overshootUsd !== undefined)) text += treeOvershootLine(s);
  text += labelledLine(`per-agent limits: ${report.settings.subagent}`, view.width);
  return text + reportFooter({ settings: report.settings.spec, priceSource: report.prices.source, ...(report.prices.note ? { pricesNote: report.prices.note } : {}), warnings: report.warnings, width: view.width });
}

const CSV_COLUMNS = [
  'sessionId', 'agent', 'kind', 'parent', 'parentToolCallId', 'models', 'parts', 'calls', 'recordedCalls', 'steps', 'compactionCalls',
  'failedCalls', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'costUsd', 'overshootUsd', 'elapsedSeconds', 'stopReason',
  'stopDetail', 'stoppedBy', 'countedAs', 'endedToolCall', 'background', 'unlinked', ...FIGURE_KEYS,
];

/**
 * One row per agent, then one per tree (`agent` = `tree`, with its overshoot under a budget brake, and `countedAs`: the
 * stop reason its session counts as where a stopped sub-agent makes it one, TreeRecord.countedAs); settings, per-agent
 * limits and price table on every row.
 */
export function renderTreeCsv(report: TreeReport): string {
  const rows: object[] = [];
  for (const tree of report.trees) {
    rows.push(...tree.agents);
    rows.push({ sessionId: tree.sessionId, agent: 'tree', kind: 'tree', ...tree.totals, overshootUsd: tree.overshootUsd, stopReason: tree.stopReason, stopDetail: tree.stopDetail, stoppedBy: tree.stopped.map((stop) => `${stop.agent}:${stop.reason}`).join(' '), countedAs: tree.countedAs?.stopReason });
  }
  const shared = { ...settingsColumns(report.settings.spec), subagentLimits: report.settings.subagent, ...priceSourceColumns(report.prices.source) };
  return formatCsv(rows, [...CSV_COLUMNS, ...SETTINGS_COLUMNS, 'subagentLimits', ...PRICE_SOURCE_COLUMNS], shared);
}
