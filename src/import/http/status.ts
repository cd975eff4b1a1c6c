/** An HTTP status code as recordings give it: a whole number from 100 to 599. */
export function isHttpStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}
