// Option validation shared by every factory: known keys, one message style, one set of checks.

import { describePrivateHeaderRule, refusedHeaderName } from "./detection-header-names.js";
import { describeOptionValue, HdOptionError, kindOf } from "./errors.js";
import { adaptLogger, consoleLogger, type Logger } from "./logger.js";
import { suggestName } from "./suggest.js";

/** Longest delay Node's timers accept, in milliseconds. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Every option name of a factory, typed against its options interface, so that adding an option
 * cannot compile until the table lists it.
 */
export type KnownOptions<T> = { readonly [K in keyof Required<T>]: true };

const NOT_SHOWN = Symbol("not shown");

/**
 * Throws `HdOptionError` for `option`. The message reads `Invalid option \`x\`: <expected>` and,
 * when `value` is given, ` Got <value>.` (`[redacted]` for a secret).
 */
export function invalidOption(
  option: string,
  expected: string,
  value: unknown = NOT_SHOWN,
  secret = false,
): never {
  const shown = value === NOT_SHOWN ? "" : ` Got ${describeOptionValue(value, secret)}.`;
  throw new HdOptionError(option, `${expected}${shown}`);
}

/** Throws `HdOptionError` for a required option that was not given. */
export function missingOption(option: string, expected: string): never {
  invalidOption(option, `is required: expected ${expected}.`);
}

/** How a factory names itself and its usage in option errors. */
export interface OptionsObjectSpec<T> {
  /** The factory as users call it, e.g. `createRedisStore()`. */
  factory: string;
  /** Its options table. */
  known: KnownOptions<T>;
  /** A short example of a valid call, shown when the options are not an object. */
  usage: string;
  /** Names people reach for, mapped to ours (lower case), for "Did you mean" hints. */
  aliases?: Readonly<Record<string, string>>;
  /**
   * Where the object sits when it is one item of an option, e.g. `users[0]`: errors then name
   * `users[0]` and `users[0].<key>`. Default: a factory's own options object.
   */
  at?: string;
}

/**
 * Checks that `options` is an options object whose own keys are all options of the factory
 * (inherited names such as `hasOwnProperty` are unknown keys too), and returns it typed for
 * reading. A misspelt key is reported with the closest known name.
 */
export function optionsObject<T>(
  options: unknown,
  spec: OptionsObjectSpec<T>,
): { readonly [K in keyof T]?: unknown } {
  const { at } = spec;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    const expected = `${spec.factory} expects an options object, such as ${spec.usage}.`;
    if (at === undefined) invalidOption("options", expected, options);
    // An item of a list (an account) may be a secret itself: only its kind is shown.
    invalidOption(at, `${expected} Got ${kindOf(options)}.`);
  }
  const names = Object.keys(spec.known);
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(spec.known, key)) continue;
    const guess = suggestName(key, names, spec.aliases);
    const hint = guess === undefined ? `Valid options: ${names.join(", ")}.` : `Did you mean \`${guess}\`?`;
    invalidOption(at === undefined ? key : `${at}.${key}`, `${spec.factory} has no such option. ${hint}`);
  }
  return options as { readonly [K in keyof T]?: unknown };
}

/** `value` as a boolean; `fallback` when not set. */
export function booleanOption(option: string, value: unknown, fallback: boolean): boolean;
export function booleanOption(option: string, value: unknown): boolean | undefined;
export function booleanOption(option: string, value: unknown, fallback?: boolean): boolean | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") invalidOption(option, "expected true or false.", value);
  return value;
}

/** Bounds of a numeric option. */
export interface NumberBounds {
  min: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** What the number counts, for the message: `milliseconds`, `bytes`, ... */
  unit?: string;
}

function describeBounds({ min, max, integer, unit }: NumberBounds): string {
  const kind = integer ? "a whole number" : "a number";
  const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
  return `${kind}${unit === undefined ? "" : ` of ${unit}`} ${range}`;
}

/** `value` as a finite number within `bounds`; `fallback` when not set. */
export function numberOption(option: string, value: unknown, bounds: NumberBounds, fallback: number): number;
export function numberOption(option: string, value: unknown, bounds: NumberBounds): number | undefined;
export function numberOption(
  option: string,
  value: unknown,
  bounds: NumberBounds,
  fallback?: number,
): number | undefined {
  if (value === undefined) return fallback;
  const { min, max = Number.MAX_SAFE_INTEGER, integer = false } = bounds;
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isSafeInteger(value))
  ) {
    invalidOption(option, `expected ${describeBounds(bounds)}.`, value);
  }
  return value;
}

/** Limits of a milliseconds option, besides Node's timer maximum. */
export interface MillisecondsBounds {
  /** Smallest value accepted. Default 1. */
  min?: number;
  /** Whole milliseconds only. Default `false`. */
  integer?: boolean;
}

/**
 * `value` as a delay or duration Node's timers accept: from 1 ms (or `bounds.min`) up to
 * {@link MAX_TIMER_MS}; `fallback` when not set.
 */
export function millisecondsOption(
  option: string,
  value: unknown,
  fallback: number,
  bounds?: MillisecondsBounds,
): number;
export function millisecondsOption(
  option: string,
  value: unknown,
  fallback: undefined,
  bounds?: MillisecondsBounds,
): number | undefined;
export function millisecondsOption(
  option: string,
  value: unknown,
  fallback: number | undefined,
  { min = 1, integer = false }: MillisecondsBounds = {},
): number | undefined {
  return numberOption(
    option,
    value,
    { min, max: MAX_TIMER_MS, integer, unit: "milliseconds" },
    fallback as number,
  );
}

/** `value` as a non-empty string (`secret`: never shown in the message); `fallback` when not set. */
export function stringOption(option: string, value: unknown, fallback: string, secret?: boolean): string;
export function stringOption(
  option: string,
  value: unknown,
  fallback?: undefined,
  secret?: boolean,
): string | undefined;
export function stringOption(
  option: string,
  value: unknown,
  fallback?: string,
  secret = false,
): string | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.trim() === "") {
    invalidOption(option, "expected a non-empty string.", value, secret);
  }
  return value;
}

/** `value` as one of `choices`; `fallback` when not set. */
export function choiceOption<C extends string>(
  option: string,
  value: unknown,
  choices: readonly C[],
  fallback: C,
): C {
  if (value === undefined) return fallback;
  if (!choices.includes(value as C)) {
    invalidOption(option, `expected ${choices.map((c) => JSON.stringify(c)).join(", ")}.`, value);
  }
  return value as C;
}

/** `value` as a function, or `undefined` when not set. */
export function functionOption<F extends (...args: never[]) => unknown>(
  option: string,
  value: unknown,
): F | undefined {
  if (value !== undefined && typeof value !== "function")
    invalidOption(option, "expected a function.", value);
  return value as F | undefined;
}

/**
 * `value` as an object with every one of `methods`; `undefined` when not set. `what` names what
 * is expected, e.g. `a cache store`.
 */
export function objectWithMethods<O extends object>(
  option: string,
  value: unknown,
  methods: readonly string[],
  what: string,
): O | undefined {
  if (value === undefined) return undefined;
  const record = value as Record<string, unknown> | null;
  if (
    typeof record !== "object" ||
    record === null ||
    !methods.every((m) => typeof record[m] === "function")
  ) {
    const noun = methods.length === 1 ? "method" : "methods";
    invalidOption(option, `expected ${what} (an object with ${methods.join(", ")} ${noun}).`, value);
  }
  return value as O;
}

/** `value` as a logger (anything with `warn`: console, pino, winston); the console logger when not set. */
export function loggerOption(option: string, value: unknown): Logger {
  const logger = objectWithMethods<Logger>(option, value, ["warn"], "a logger");
  return logger === undefined ? consoleLogger : adaptLogger(logger);
}

/** `value` as an absolute URL using one of `protocols` (e.g. `["http:", "https:"]`); `undefined` when not set. */
export function urlOption(option: string, value: unknown, protocols: readonly string[]): URL | undefined {
  if (value === undefined) return undefined;
  const text = value instanceof URL ? value.href : value;
  const expected = `expected an absolute ${protocols.map((p) => p.replace(/:$/, "")).join(" or ")} URL.`;
  // A URL may carry a password (which may hold a "/"): the message shows none of what precedes the last "@".
  const shown =
    typeof text === "string" ? text.replace(/^([a-z][a-z0-9+.-]*:)?(?:\/\/)?.*@/is, "$1//[redacted]@") : text;
  if (typeof text !== "string" || !URL.canParse(text)) invalidOption(option, expected, shown);
  const url = new URL(text);
  if (!protocols.includes(url.protocol)) invalidOption(option, expected, shown);
  return url;
}

/**
 * `value` as a list of lower-case header names, without repeats; `[]` when not set. With
 * `refusePrivate`, the names that carry credentials or personal data are refused.
 */
export function headerNamesOption(option: string, value: unknown, refusePrivate = false): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) invalidOption(option, "expected an array of header names.", value);
  const refused = refusedHeaderName(value, refusePrivate);
  if (refused !== undefined) {
    invalidOption(
      option,
      refused.rule !== undefined
        ? `carries credentials or personal data: ${describePrivateHeaderRule(refused.rule)} refuses it; it is never sent for detection.`
        : "expected lower-case header names.",
      refused.name,
    );
  }
  return [...new Set(value as string[])];
}

/**
 * `value` as more header names to detect on (see {@link headerNamesOption}); refuses the names
 * that carry credentials or personal data (`cookie`, `x-msisdn`, `x-api-key`, ...: the rules
 * of `PRIVATE_HEADER_RULES`), naming the rule.
 */
export function allowedHeadersOption(option: string, value: unknown): readonly string[] {
  return headerNamesOption(option, value, true);
}
