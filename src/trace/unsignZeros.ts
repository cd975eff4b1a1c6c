/**
 * A count written `-0` is the same count as 0, and the native writer (as JSON.stringify) writes it as 0:
 * so that a run reads back from its own export exactly as it was read, every reader turns a record's
 * `-0` into 0 (found by the damaged-input property test: a Bedrock cassette's 0 made "-0").
 */
export function unsignZeros(record: object): void {
  const fields = record as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (Object.is(value, -0)) fields[key] = 0;
    else if (key === 'toolCalls' && Array.isArray(value)) for (const tool of value) if (tool !== null && typeof tool === 'object') unsignZeros(tool as object);
  }
}
