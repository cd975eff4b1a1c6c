/**
 * A scripted model double for tests of agent code (as openai-agents-js offers): each call is answered with
 * the script's next turn — a ModelTurn, or a function of the request that returns one (to assert what the loop
 * sent; throwing a ModelCallError from it scripts a failed call, which the loop records, bills and retries as
 * a provider's). Each turn carries its usage as a provider bills it, so the loop meters it, checks it
 * (turnCheck.ts: a ModelTurnError for usage that is no token count) and brakes on it as on a real model's.
 * A call past the script is no model failure the loop could bill and retry, nor the end of a recording
 * (ModelExhausted would end the run quietly): it is the test's surprise, a ScriptedModelError thrown out of
 * runAgentLoop, naming the call and the script's length. `assertDone()` fails as loudly on a script not used up.
 */
import { checkArguments, stringIssue } from '../options/arguments.js';
import { isObject, shown, type Issue } from '../options/issues.js';
import { validateOptions } from '../options/rules.js';
import type { Model, ModelRequest, ModelTurn } from './types.js';

/** One scripted answer: the turn itself, or a function of the request returning it (it may throw a ModelCallError: a failed call). */
export type ScriptedTurn = ModelTurn | ((request: ModelRequest) => ModelTurn | Promise<ModelTurn>);

export interface ScriptedModelOptions {
  /** The model's name as priced and recorded: the model `pricing` prices (default `scripted`, which no price table holds). */
  name?: string;
  provider?: string;
}

/** A Model answering from a script, with what it was asked. */
export interface ScriptedModel extends Model {
  /** Calls received so far, the one past the script included. */
  readonly calls: number;
  /** The requests received, in order (what the loop sent: messages, tools, maxOutputTokens…). */
  readonly requests: readonly ModelRequest[];
  /** Scripted turns not yet answered. */
  readonly remaining: number;
  /** Throws a ScriptedModelError when a scripted turn was never asked for (the run ended before its script did). */
  assertDone(): void;
}

/** A scripted model called past its script (`callNumber` > `scriptLength`), or left with turns unused (assertDone): the test's code, not the run's input. */
export class ScriptedModelError extends Error {
  constructor(
    readonly model: string,
    /** The call that found no turn (1-based), or, from assertDone, the calls made. */
    readonly callNumber: number,
    readonly scriptLength: number,
    message: string,
  ) {
    super(message);
    this.name = 'ScriptedModelError';
  }
}

const OPTION_KEYS = ['name', 'provider'] as const;

/** A Model answering call k (1-based) with `turns[k - 1]`; a call past them throws a ScriptedModelError. */
export function scriptedModel(turns: readonly ScriptedTurn[], options: ScriptedModelOptions = {}): ScriptedModel {
  checkArguments('scriptedModel', (issue) => turnsIssue(issue, turns));
  validateOptions('scriptedModel', options, OPTION_KEYS, (issue, given) => {
    for (const key of OPTION_KEYS) stringIssue(issue, given[key], { field: key, hint: key === 'name' ? "the model's name as priced, e.g. 'gpt-4o-mini'" : "e.g. 'openai'", optional: true });
  });
  const script = [...turns];
  const requests: ModelRequest[] = [];
  const model: ScriptedModel = {
    name: options.name ?? 'scripted',
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    get calls() {
      return requests.length;
    },
    get requests() {
      return requests as readonly ModelRequest[];
    },
    get remaining() {
      return Math.max(0, script.length - requests.length);
    },
    async call(request) {
      requests.push(request);
      const turn = script[requests.length - 1];
      if (turn === undefined) throw pastScript(model.name, requests.length, script.length);
      return typeof turn === 'function' ? turn(request) : turn;
    },
    assertDone() {
      if (requests.length < script.length) throw scriptLeft(model.name, requests.length, script.length);
    },
  };
  return model;
}

function pastScript(name: string, callNumber: number, scriptLength: number): ScriptedModelError {
  const said = scriptLength === 1 ? '1 turn' : `${scriptLength} turns`;
  return new ScriptedModelError(name, callNumber, scriptLength, `scripted model ${JSON.stringify(name)} got call #${callNumber}, past its script of ${said}: the loop called the model more often than the test expected (script another turn, or find why the run did not stop)`);
}

function scriptLeft(name: string, calls: number, scriptLength: number): ScriptedModelError {
  const left = scriptLength - calls;
  return new ScriptedModelError(name, calls, scriptLength, `scripted model ${JSON.stringify(name)} answered ${calls} of its ${scriptLength} scripted turns: ${left} never asked for (the run stopped before its script ended)`);
}

/** `turns`: an array, each a turn object or a function. */
function turnsIssue(issue: Issue, turns: unknown): void {
  const hint = 'give a list of ModelTurns ({ text, toolCalls, usage }) or functions of the request returning one';
  if (!Array.isArray(turns)) return issue('turns', turns === undefined ? 'missing_input' : 'invalid_input', `${shown(turns)} is not an array of turns`, hint);
  const bad = turns.findIndex((turn) => !isObject(turn) && typeof turn !== 'function');
  if (bad >= 0) issue(`turns[${bad}]`, 'invalid_input', `${shown(turns[bad])} is not a turn or a function`, hint);
}
