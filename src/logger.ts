// The injectable logger every part of the package reports warnings through.

/**
 * Where the package reports warnings and notices, as `(message, details)`. `console` and winston
 * fit as they are; pino is adapted (see {@link adaptLogger}).
 */
export interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  debug?(message: string, details?: Record<string, unknown>): void;
}

/** A logger whose methods take the details first, as pino's do: `warn(details, message)`. */
interface DetailsFirstLogger {
  warn(details: Record<string, unknown>, message: string): void;
  info?(details: Record<string, unknown>, message: string): void;
  debug?(details: Record<string, unknown>, message: string): void;
  bindings(): unknown;
}

/** pino (and loggers built on it, such as Fastify's) has `bindings()`; console and winston do not. */
function isDetailsFirst(logger: object): logger is DetailsFirstLogger {
  return typeof (logger as { bindings?: unknown }).bindings === "function";
}

/**
 * The logger the package reports through: `given` itself when it takes `(message, details)`
 * (console, winston), or an adapter that calls pino's `(details, message)` methods, so the
 * message, the warning code and the details all reach the log line.
 */
export function adaptLogger(given: Logger): Logger {
  if (!isDetailsFirst(given)) return given;
  const pino = given;
  const call =
    (method: "warn" | "info" | "debug") =>
    (message: string, details?: Record<string, unknown>): void => {
      pino[method]?.call(pino, details ?? {}, message);
    };
  return {
    warn: call("warn"),
    ...(typeof pino.info === "function" ? { info: call("info") } : {}),
    ...(typeof pino.debug === "function" ? { debug: call("debug") } : {}),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { warn() {} };

/** Console logger used when none is given: warnings only, prefixed with the package name. */
export const consoleLogger: Logger = {
  warn(message, details) {
    if (details === undefined) console.warn(`[handset-detection] ${message}`);
    else console.warn(`[handset-detection] ${message}`, details);
  },
};

/**
 * Wraps a logger so that each warning code is reported once for the wrapper's lifetime.
 * Warnings must carry a `code` in their details to be de-duplicated.
 */
export function warnOnce(
  logger: Logger,
): (code: string, message: string, details?: Record<string, unknown>) => void {
  const seen = new Set<string>();
  return (code, message, details) => {
    if (seen.has(code)) return;
    seen.add(code);
    logger.warn(message, { code, ...details });
  };
}
