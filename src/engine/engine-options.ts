// Options of the local engine, validated once into a resolved config.

import { consoleLogger, type Logger } from "../logger.js";
import { choiceOption, type KnownOptions, loggerOption, optionsObject } from "../options.js";

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

export const KNOWN_OPTIONS: KnownOptions<LocalEngineOptions> = { logger: true, matcher: true };

/**
 * Validates engine options.
 *
 * @throws {HdOptionError} naming the option for an unknown key or a bad value.
 */
export function resolveEngineOptions(options: LocalEngineOptions | undefined): ResolvedEngineOptions {
  if (options === undefined) return { logger: consoleLogger, matcher: "compiled" };
  const o = optionsObject<LocalEngineOptions>(options, {
    factory: "LocalEngine",
    known: KNOWN_OPTIONS,
    usage: '{ matcher: "compiled" }',
  });
  return {
    logger: loggerOption("logger", o.logger),
    matcher: choiceOption("matcher", o.matcher, ["compiled", "naive"], "compiled"),
  };
}
