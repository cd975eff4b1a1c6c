/**
 * The clock for a real loop run against `loopcost serve`. Serve answers at once, so on the wall clock a served
 * run takes your machine's time, not the recording's, and its timeout brake stops nowhere near where
 * `loopcost replay --timeout` stops the recording. A ServedClock is a VirtualClock (it tells no date unless
 * given an epoch) moved by the time each served call took as recorded — the `latencyMs` of the call in serve's
 * `loopcost` extension of its answer (`loopcost.record`; a recorded failed call's in `error.loopcost`) — once the
 * call returns, and by each tool call's recorded time (`loopcost.record.toolCalls[i].latencyMs`) once the loop is
 * done with it — run, or refused without running (an unknown tool, arguments that are not a JSON object), not
 * one the duplicate-action guard skipped (replay counts none of a skip's time): so the loop's timeout brake reads
 * the recording's time, between calls as `replay` does, and the run stops where the replay stops
 * (test/agent/servedClock.test.ts).
 *
 *   const clock = new ServedClock();
 *   runAgentLoop({ model: clock.model(openAIChatModel({ … })), tools: […], clock, brakes: { timeoutMs: 120_000 }, … })
 *
 * A call or tool serve says nothing of (another server, a call refused) moves it by nothing. Your tools' own
 * time is not counted (the recording's stands for it), nor a wait before a retry beyond the loop's own back-off.
 */
import { VirtualClock } from './clock.js';
import { ModelCallError, type Model, type ModelTurn } from './types.js';

/** What serve's `loopcost` extension says of a call's time: the call's, and each of its tool calls' (ids given by the answer's tool calls). */
interface ServedRecord {
  latencyMs?: unknown;
  toolCalls?: readonly { latencyMs?: unknown }[];
}

export class ServedClock extends VirtualClock {
  /** Recorded times of the tool calls answered and not yet run, by the id the answer gave each (in order, for an id given twice). */
  private readonly toolTimes = new Map<string, number[]>();

  /** `model`, each call of which moves this clock by the call's recorded time once it returns (or fails as recorded). */
  model(model: Model): Model {
    return {
      name: model.name,
      ...(model.provider === undefined ? {} : { provider: model.provider }),
      call: async (request) => {
        let turn: ModelTurn;
        try {
          turn = await model.call(request);
        } catch (error) {
          this.advance(msOf(failedLatencyOf(error)));
          throw error;
        }
        const record = recordOf(turn.raw);
        this.noteToolTimes(turn, record);
        this.advance(msOf(record?.latencyMs));
        return turn;
      },
    };
  }

  /**
   * The loop is done with the answer's tool call `callId` (agent/stepTools.ts): run, or refused without running
   * (an unknown tool, arguments that are not a JSON object) — its recorded time counts, as replay counts it;
   * `counted` false for one the duplicate-action guard skipped, whose time replay does not count either.
   */
  toolCallDone(callId: string, counted: boolean): void {
    const ms = this.toolTime(callId);
    if (counted) this.advance(ms);
  }

  /** The answer's tool calls' recorded times, by the ids the answer gave them. */
  private noteToolTimes(turn: ModelTurn, record: ServedRecord | undefined): void {
    const recorded = record?.toolCalls ?? [];
    const fresh = new Map<string, number[]>();
    turn.toolCalls.forEach((call, i) => {
      const times = fresh.get(call.id) ?? [];
      times.push(msOf(recorded[i]?.latencyMs));
      fresh.set(call.id, times);
    });
    for (const [id, times] of fresh) this.toolTimes.set(id, times);
  }

  private toolTime(callId: string): number {
    const times = this.toolTimes.get(callId);
    const ms = times?.shift() ?? 0;
    if (times?.length === 0) this.toolTimes.delete(callId);
    return ms;
  }
}

/** serve's `loopcost.record` in an answer as the adapter received it (ModelTurn.raw), if any. */
function recordOf(raw: unknown): ServedRecord | undefined {
  const record = (raw as { loopcost?: { record?: unknown } } | null | undefined)?.loopcost?.record;
  return typeof record === 'object' && record !== null ? (record as ServedRecord) : undefined;
}

/** A recorded failed call's time, as serve says it in `error.loopcost.latencyMs` (openAIChatModel keeps the SDK's error as the cause). */
function failedLatencyOf(error: unknown): unknown {
  if (!(error instanceof ModelCallError)) return undefined;
  return (error.options.cause as { error?: { loopcost?: { latencyMs?: unknown } } } | undefined)?.error?.loopcost?.latencyMs;
}

/** A time serve says, in ms: a finite number, 0 or more; anything else counts nothing. */
function msOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
