/**
 * A share (0.02) as reports write it as a percentage: one decimal from 1% up (`2.0%`, `79.3%`), two
 * significant digits below (`0.50%` is `0.5%`, `0.012%`, `1e-8%`), so a share above 0 never reads as `0.0%`
 * (`project --suggest-cap 1e-10` said "at most 0.0% asked"). 0 is `0.0%`.
 */
export function percentText(share: number): string {
  const percent = share * 100;
  // Decided on the value as written: 0.996% rounds to 1.0%, which is said as 1% and up are (`1.0%`, not `1%`).
  const small = Number(percent.toPrecision(2));
  if (percent === 0 || Math.abs(small) >= 1) return `${percent.toFixed(1)}%`;
  return `${small}%`;
}
