export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** Width of the terminal when stdout is one (text reports fit it); absent: not a terminal (120 columns). */
  columns?: number;
  /** stderr is a terminal: long jobs may draw progress there (never in piped or redirected output). */
  stderrIsTerminal?: boolean;
}
