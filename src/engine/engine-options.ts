// Options of the local engine, validated once into a resolved config.

import { describeOptionValue, HdOptionError } from "../errors.js";
import { consoleLogger, type Logger } from "../logger.js";

/** Options of {@link LocalEngine.fromFiles}, {@link LocalEngine.fromData} and the data builders. */
export interface LocalEngineOptions {
  /** Where load warnings go (missing device records, reordered keys, missing trees). Default: console. */
  logger?: Logger;
  /**
   * Sieve implementation. `"compiled"` (default) builds an automaton once at load and reads each
   * header value once; `"naive"` is the reference walk (slow; for tests and comparisons).
   */
  matcher?: "compiled" | "naive";
}

/** Options after validation. */
export interface ResolvedEngineOptions {
  readonly logger: Logger;
  readonly matcher: "compiled" | "naive";
}

const KNOWN: { [K in keyof Required<LocalEngineOptions>]: true } = { logger: true, matcher: true };

/**
 * Validates engine options.
 *
 * @throws {HdOptionError} naming the option for an unknown key or a bad value.
 */
export function resolveEngineOptions(options: LocalEngineOptions | undefined): ResolvedEngineOptions {
  if (options === undefined) return { logger: consoleLogger, matcher: "compiled" };
  if (options === null || typeof options !== "object") {
    throw new HdOptionError("options", `expected an object, got ${describeOptionValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(KNOWN, key)) {
      throw new HdOptionError(key, `unknown option; known options are ${Object.keys(KNOWN).join(", ")}`);
    }
  }
  const { logger, matcher } = options;
  if (logger !== undefined && (logger === null || typeof logger.warn !== "function")) {
    throw new HdOptionError("logger", "expected an object with a warn(message, details) method");
  }
  if (matcher !== undefined && matcher !== "compiled" && matcher !== "naive") {
    throw new HdOptionError("matcher", `expected "compiled" or "naive", got ${describeOptionValue(matcher)}`);
  }
  return { logger: logger ?? consoleLogger, matcher: matcher ?? "compiled" };
}
