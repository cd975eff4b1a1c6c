/**
 * Flags that would do nothing are refused (or, when harmless, warned about), never silently ignored:
 * a mode without its brake, --per-step with a table, --out with --report-dir, --wide with CSV.
 * And the report format follows --out's extension when --format is not given (an extension of no format is refused).
 */
import type { BrakeConfig } from '../../brakes/config.js';
import { UserError } from '../../errors.js';
import { STDOUT_PATH } from '../../io/outputTarget.js';
import { modesWithoutBrake as modesGivenAlone } from '../../flags/modesWithoutBrake.js';
import { brakesFromFlags, RECORDED_PRESET, type BrakeFlags } from '../../flags/settingsFlags.js';
import type { CliIO } from '../io.js';
import type { SubagentLimits } from '../../tree/engine.js';
import type { TreeFlags } from './treeFlags.js';

function useless(flag: string, message: string, hint: string, command: string): UserError {
  return new UserError({ file: '<command line>', field: flag, code: 'flag_without_effect', message, hint: `${hint}; run 'loopcost ${command} --help'` });
}

/**
 * The modes that mean something only beside their brake, given without it in any of `applied`: [mode flag,
 * brake flag] (the rule a scenario file's `brakes:` is held to as well: flags/modesWithoutBrake.ts).
 * `subagentBudget`: a per-agent cost limit (`--subagent-max-cost` under --tree) binds too, and the budget
 * mode applies to it (src/tree/budget.ts), so the budget mode has an effect beside it alone; so it has under
 * --preset recorded, where a run's own cost limit may apply.
 */
function modesWithoutBrake(flags: BrakeFlags, applied: readonly BrakeConfig[], subagentBudget = false): [string, string][] {
  return modesGivenAlone(flags, applied, subagentBudget || flags.preset === RECORDED_PRESET).map(({ modeFlag, brakeFlag }) => [modeFlag, brakeFlag]);
}

/** A per-agent cost limit that binds: `--subagent-max-cost` given with --tree (without --tree it is refused on its own). */
function hasSubagentBudget(flags: Pick<TreeFlags, 'tree' | 'subagentMaxCost'>): boolean {
  return flags.tree === true && flags.subagentMaxCost !== undefined;
}

/**
 * Refuses a brake mode given without its brake (flags, or a preset that sets it). `scenarioBrakes`: the
 * brakes scenario files' runs take (their own, the flags on top), where the brake may be set too. Under
 * --tree, `--subagent-max-cost` is a budget the budget mode applies to.
 */
export function checkBrakeFlags(flags: BrakeFlags & Pick<TreeFlags, 'tree' | 'subagentMaxCost'>, command: string, scenarioBrakes: readonly BrakeConfig[] = []): void {
  const brakes = brakesFromFlags({ ...flags, preset: flags.preset === RECORDED_PRESET ? undefined : flags.preset });
  const [first] = modesWithoutBrake(flags, [brakes, ...scenarioBrakes], hasSubagentBudget(flags));
  if (first) throw useless(first[0], `has no effect without ${first[1]}`, `add ${first[1]} N, or drop ${first[0]}`, command);
}

/**
 * The same for a `--try` setting (`repeat-mode=total` alone sets no brake). `subagent`: the per-agent
 * limits (whatif --tree's flags, under every --try): a per-agent cost limit gives `budget-mode` an effect.
 */
export function checkTrySpec(spec: string, brakes: BrakeConfig, subagent?: SubagentLimits): void {
  const flags: BrakeFlags = {};
  for (const part of spec.split(',')) {
    const key = part.split('=')[0]!.trim();
    if (key === 'repeat-mode') flags.repeatMode = 'x';
    if (key === 'repeat-action') flags.repeatAction = 'x';
    if (key === 'same-error-mode') flags.sameErrorMode = 'x';
    if (key === 'budget-mode') flags.budgetMode = 'x';
  }
  const [first] = modesWithoutBrake(flags, [brakes], subagent?.maxCostPico !== undefined);
  if (first) {
    const [mode, brake] = [first[0].slice(2), first[1].slice(2)];
    throw useless('--try', `'${spec}': ${mode} has no effect without ${brake}`, `write ${brake}=N,${mode}=… in the same --try`, 'whatif');
  }
}

const FORMAT_BY_EXTENSION: Record<string, string> = { '.json': 'json', '.csv': 'csv', '.txt': 'table' };

/** The file type `out`'s name ends in, lower-cased (`.md`); none for a name without one, a dotfile, or a dotted number (`r.2024`). */
export function outExtension(out: string): string | undefined {
  const name = out.slice(Math.max(out.lastIndexOf('/'), out.lastIndexOf('\\')) + 1);
  return /^[^.].*(\.[a-z][a-z0-9]*)$/i.exec(name)?.[1]?.toLowerCase();
}

/**
 * The report format: --format when given, else --out's extension (.json, .csv, .txt; before a .gz), else table. An
 * extension that names no format loopcost writes (.md, .yaml, .html) is refused without --format (the
 * file would not be what its name says); with --format, that format is written under the name given. A
 * --format that contradicts a known extension is said on stderr (the file gets what --format asked for).
 */
export function chooseFormat(flags: { format?: string; out?: string }, io: CliIO): string {
  // `r.json.gz`: a gzip JSON report (the writer compresses a .gz name).
  const extension = flags.out === undefined ? undefined : outExtension(flags.out.replace(/\.gz$/i, ''));
  const fromExtension = extension === undefined ? undefined : FORMAT_BY_EXTENSION[extension];
  if (flags.format === undefined) {
    if (extension !== undefined && fromExtension === undefined) throw unknownExtension(flags.out!, extension);
    return fromExtension ?? 'table';
  }
  if (fromExtension !== undefined && fromExtension !== flags.format && !(flags.format === 'chart' && fromExtension === 'table')) {
    io.stderr(`loopcost: warning: --out ${flags.out} has a ${extension} name but --format ${flags.format} was asked for: writing ${flags.format}\n`);
  }
  return flags.format;
}

function unknownExtension(out: string, extension: string): UserError {
  return new UserError({
    file: '<command line>',
    field: '--out',
    code: 'unknown_extension',
    message: `'${out}' ends in ${extension}, which names no format loopcost writes (the format follows --out's extension: .json, .csv, or .txt for a table)`,
    hint: 'name the file .json, .csv or .txt, or give --format to write that format under this name',
  });
}

/** The flags that shape synthetic runs only (`seedSeedsProjection`: `project`'s --seed also seeds its simulated days). */
export interface ScenarioRunFlags {
  runs?: string;
  seed?: string;
  seedSeedsProjection?: boolean;
}

/**
 * --runs and --seed shape synthetic runs only: the lines that say so when no input is a scenario file (`project`'s
 * --seed also seeds its simulated days, so it is not said there: `seedSeedsProjection`). `words`: what they
 * apply to and why none is there, for a command whose inputs are all scenario files (check: `scenarioFiles`
 * counts those with a synthetic population). Of trace files, said once they are read (inputs.ts
 * sayInputsRead): an input refused (a scenario file saved as UTF-16, read as no scenario) is no input
 * to say that of.
 */
export function idleScenarioFlagLines(flags: ScenarioRunFlags, scenarioFiles: number, words = { appliesTo: 'scenario files', none: 'no input is one' }): string {
  if (scenarioFiles > 0) return '';
  const given = [['--runs', flags.runs], ['--seed', flags.seedSeedsProjection === true ? undefined : flags.seed]] as const;
  return given.map(([flag, value]) => (value === undefined ? '' : `loopcost: warning: ${flag} applies to ${words.appliesTo}; ${words.none}, so it does nothing\n`)).join('');
}

/** idleScenarioFlagLines said on stderr now: for a command whose inputs are read already (check's scenario files). */
export function warnScenarioFlags(flags: ScenarioRunFlags, scenarioFiles: number, io: CliIO, words?: { appliesTo: string; none: string }): void {
  io.stderr(idleScenarioFlagLines(flags, scenarioFiles, words));
}

/** --wide and --per-run shape tables only: said on stderr when the report is not one. */
export function warnViewFlags(flags: { wide?: boolean; perRun?: boolean }, format: string, io: CliIO): void {
  if (format === 'table') return;
  for (const [flag, given] of [['--wide', flags.wide], ['--per-run', flags.perRun]] as const) {
    if (given) io.stderr(`loopcost: warning: ${flag} shapes table output only; it does nothing with --format ${format}\n`);
  }
}

/** replay's output flags: --per-step needs JSON or CSV; --report-dir writes every format itself. */
export function checkReplayOutputFlags(flags: { format?: string; out?: string; reportDir?: string; perStep?: boolean }, format: string): void {
  if (flags.reportDir !== undefined && flags.out !== undefined) {
    throw useless('--out', 'cannot be used with --report-dir, which writes every report into its directory', 'drop one of --out and --report-dir', 'replay');
  }
  if (flags.reportDir !== undefined && flags.format !== undefined) {
    throw useless('--format', 'has no effect with --report-dir, which writes every format (json, csv, table, chart, per-step csv)', 'drop --format, or --report-dir', 'replay');
  }
  if (flags.perStep === true && flags.reportDir === undefined && (format === 'table' || format === 'chart')) {
    throw useless('--per-step', `has no effect on ${format} output: per-call figures go in JSON and CSV`, 'add --format json or --format csv (or --out FILE.json / .csv)', 'replay');
  }
}

/**
 * `-` is standard output (src/io/outputTarget.ts STDOUT_PATH); a command whose standard output carries its
 * own report refuses it for a file it writes beside that report (`prices derive --out`: the price file
 * beside its table; check's `--junit`, `--update-baseline`): the two would be mixed into one stream.
 */
export function refuseStdoutOutput(outputs: Readonly<Record<string, string | undefined>>, writer: { command: string; carries: string }): void {
  for (const [flag, path] of Object.entries(outputs)) {
    if (path !== STDOUT_PATH) continue;
    throw new UserError({
      file: '<command line>',
      field: flag,
      code: 'bad_value',
      message: `'-' is standard output, which carries ${writer.command}'s ${writer.carries}: the file ${flag} writes would be mixed into it`,
      hint: `give ${flag} a file path (./- if you mean a file named '-')`,
    });
  }
}
