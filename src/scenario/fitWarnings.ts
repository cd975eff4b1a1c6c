/**
 * The warnings `fit` wrote into a profile it fitted (`# Warning: …` lines of the comment block that opens
 * with `# Fitted by loopcost fit`), kept beside the loaded scenario as its lines are (scenarioLines.ts): a
 * team that replays or projects a fitted profile is told what fit found wrong with it (runs of several
 * models pooled, compactions fitted as full history, recorded prompts past the window), not only whoever
 * ran fit. Said once per file by the commands that run scenarios (cli/actions/scenarioWarnings.ts). Pure.
 */

const FITTED = '# Fitted by loopcost fit';
const WARNING = '# Warning: ';

const WARNINGS = new WeakMap<object, readonly string[]>();

/** The `# Warning:` lines of a fitted profile's opening comments; none for a file `fit` did not write. */
export function fitWarningsIn(text: string): string[] {
  if (!text.startsWith(FITTED)) return [];
  const warnings: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('#')) break;
    if (line.startsWith(WARNING)) warnings.push(line.slice(WARNING.length).trim());
  }
  return warnings;
}

/** Keeps the fit warnings of `text` beside `scenario` (the object parseScenario returns). */
export function keepFitWarnings(scenario: object, text: string): void {
  const warnings = fitWarningsIn(text);
  if (warnings.length > 0) WARNINGS.set(scenario, warnings);
}

/** The fit warnings of a loaded scenario; none for one built in memory (or a copy of one). */
export function fitWarningsOf(scenario: object): readonly string[] {
  return WARNINGS.get(scenario) ?? [];
}
