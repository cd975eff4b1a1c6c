/** Decoding an OTLP AnyValue (`{stringValue}`, `{intValue}`, `{arrayValue: {values}}`, …) into a plain value. */
import { inputError } from '../common/issues.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';
import type { AttrValue } from './span.js';

/**
 * The value of an AnyValue: int64 decimal strings become numbers, arrays and kvlists are decoded in
 * depth, bytes stay base64 text, an empty AnyValue is null. A wrongly typed value fails at `field`.
 */
export function decodeAnyValue(v: unknown, file: string, line: number | undefined, field: string): AttrValue {
  if (!isJsonObject(v)) throw inputError({ file, line, field }, 'wrong_type', `expected an OTLP AnyValue object, got ${describeValue(v)}`);
  if ('stringValue' in v) {
    if (typeof v.stringValue !== 'string') {
      throw inputError({ file, line, field: `${field}.stringValue` }, 'wrong_type', `expected a string, got ${describeValue(v.stringValue)}`);
    }
    return v.stringValue;
  }
  if ('intValue' in v) {
    const raw = v.intValue;
    const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isInteger(n)) {
      throw inputError({ file, line, field: `${field}.intValue` }, 'wrong_type', `expected an integer (number or decimal string), got ${describeValue(raw)}`);
    }
    return n;
  }
  if ('doubleValue' in v) {
    const raw = v.doubleValue;
    const n = typeof raw === 'string' ? Number(raw) : raw;
    if (typeof n !== 'number' || Number.isNaN(n)) {
      throw inputError({ file, line, field: `${field}.doubleValue` }, 'wrong_type', `expected a number, got ${describeValue(raw)}`);
    }
    return n;
  }
  if ('boolValue' in v) {
    if (typeof v.boolValue !== 'boolean') {
      throw inputError({ file, line, field: `${field}.boolValue` }, 'wrong_type', `expected a boolean, got ${describeValue(v.boolValue)}`);
    }
    return v.boolValue;
  }
  if ('arrayValue' in v) {
    const values = isJsonObject(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values : [];
    return values.map((x, i) => decodeAnyValue(x, file, line, `${field}.arrayValue.values[${i}]`));
  }
  if ('kvlistValue' in v) {
    const values = isJsonObject(v.kvlistValue) && Array.isArray(v.kvlistValue.values) ? v.kvlistValue.values : [];
    const out: { [key: string]: AttrValue } = {};
    values.forEach((kv, i) => {
      if (isJsonObject(kv) && typeof kv.key === 'string') out[kv.key] = decodeAnyValue(kv.value, file, line, `${field}.kvlistValue.values[${i}].value`);
    });
    return out;
  }
  if ('bytesValue' in v) return typeof v.bytesValue === 'string' ? v.bytesValue : null;
  return null;
}
