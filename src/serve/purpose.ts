/**
 * The request header by which a loop tells `loopcost serve` what a request is for. A real provider
 * ignores it. `summary`: the context strategy's summary call — answered as a compaction call of the
 * request's output cap in tokens (paid, not a step), never with the recording's or the agent's next answer.
 */
export const PURPOSE_HEADER = 'x-loopcost-purpose';
