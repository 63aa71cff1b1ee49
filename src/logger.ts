// The injectable logger every part of the package reports warnings through.

/** Where the package reports warnings and notices. `console` fits; so do pino and winston. */
export interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  debug?(message: string, details?: Record<string, unknown>): void;
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
