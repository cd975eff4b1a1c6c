/** `1 run`, `7 runs`: a count and its noun in the number it takes (`plural` where it is not the noun + s). */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
