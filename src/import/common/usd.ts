/** A recorded dollar amount as importers' messages show it, to six significant digits: `$0.0363394`. */
export function usd(amount: number): string {
  return `$${Number(amount.toPrecision(6))}`;
}
