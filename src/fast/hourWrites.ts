/**
 * Whether a trace holds a call the closed form would price wrong with the cache on: one without a
 * recorded prompt size (so a plain call, which a stretch may take) that records cache writes for an
 * hour (kernel/meter.ts writesForAnHour), which the meter's `on` writes for an hour, at the hour's price.
 * The closed form prices every write at the five-minute price, so it refuses such a trace where an
 * hour's write is priced apart (closedForm.ts closedFormApplies); its calls take the per-step loop,
 * which meters each.
 */
import { CallField, CallFlag } from '../kernel/callRecord.js';
import { writesForAnHour } from '../kernel/meter.js';
import { PriceField, type FlatPrices } from '../kernel/prices.js';
import { CompiledField, type CompiledTrace } from './layout.js';

/** Per compiled records (a fresh view per compiled trace): the answer, found once per trace. */
const found = new WeakMap<Float64Array, boolean>();

export function plainCallWritesForAnHour(t: CompiledTrace): boolean {
  const records = t.records;
  let answer = found.get(records);
  if (answer === undefined) {
    answer = false;
    for (let i = 0, at = 0; i < t.calls; i++, at += CompiledField.Stride) {
      if ((records[at + CallField.Flags]! & CallFlag.RecordedInput) === 0 && writesForAnHour(records, at)) {
        answer = true;
        break;
      }
    }
    found.set(records, answer);
  }
  return answer;
}

/** Whether some tier prices a cache write for an hour apart from one for five minutes (written tokens are counted alike). */
export function hourWritesPricedApart(prices: FlatPrices): boolean {
  const rows = prices.rows;
  for (let row = 0; row <= prices.tiers; row++) {
    const at = row * PriceField.Stride;
    if (rows[at + PriceField.CacheWrite1h] !== rows[at + PriceField.CacheWrite]) return true;
  }
  return false;
}
