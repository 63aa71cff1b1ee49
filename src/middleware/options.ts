// The middleware's options: the core's, and what it does with HTTP responses (validated here, once).

import type { Request } from "express";
import {
  type CoreConfig,
  type DeviceDetectorOptions,
  KNOWN_DETECTOR_OPTIONS,
  resolveDetectorOptions,
} from "../core/options.js";
import { booleanOption, functionOption, type KnownOptions } from "../options.js";
import { type ResolvedPageScript, resolvePageScript } from "./device-script.js";
import { type ResolvedClientHints, resolveClientHints } from "./hint-requests.js";

/** Options of {@link handsetDetection}: the core's, and what the middleware does with HTTP responses. */
export interface HandsetDetectionOptions extends DeviceDetectorOptions {
  /**
   * `true` (default): a failed or late detection leaves `req.device` unknown with `error` set and
   * the request continues. `false`: the error goes to `next(error)`.
   */
  failOpen?: boolean;
  /** Called for each request whose detection failed or timed out. Errors it throws are logged. */
  onError?: (error: Error, req: Request) => void;
  /** Set `Vary` for the detection headers on every response (default `true`). */
  vary?: boolean;
  /**
   * Requests that need no device (health checks, assets): when it returns `true`, the middleware
   * calls `next()` at once, with no detection, no `Vary` and no `req.device`.
   */
  skip?: (req: Request) => boolean;
}

/** Every option of the middleware. */
export const KNOWN_OPTIONS: KnownOptions<HandsetDetectionOptions> = {
  ...KNOWN_DETECTOR_OPTIONS,
  failOpen: true,
  onError: true,
  vary: true,
  skip: true,
};

/** What the middleware does with HTTP responses, resolved. */
export interface HttpConfig {
  failOpen: boolean;
  onError: ((error: Error, req: Request) => void) | undefined;
  skip: ((req: Request) => boolean) | undefined;
  vary: boolean;
  /** What to ask browsers for; `undefined` when client hints are off. */
  clientHints: ResolvedClientHints | undefined;
  /** The page script as served; `undefined` when off. */
  pageScript: ResolvedPageScript | undefined;
}

/**
 * Validates the middleware's options: the core resolves its own (and refuses unknown keys), the
 * HTTP-only ones are resolved here. Throws `HdOptionError` naming the option.
 */
export function resolveMiddlewareOptions(options: HandsetDetectionOptions): {
  core: CoreConfig;
  http: HttpConfig;
} {
  const core = resolveDetectorOptions(options, {
    factory: "handsetDetection()",
    known: KNOWN_OPTIONS as KnownOptions<DeviceDetectorOptions>,
  });
  const opt = options as { readonly [K in keyof HandsetDetectionOptions]?: unknown };
  return {
    core,
    http: {
      failOpen: booleanOption("failOpen", opt.failOpen, true),
      onError: functionOption("onError", opt.onError),
      skip: functionOption("skip", opt.skip),
      vary: booleanOption("vary", opt.vary, true),
      clientHints: core.readHints ? resolveClientHints(opt.clientHints) : undefined,
      pageScript: resolvePageScript(opt.pageScript, core.scriptCookie),
    },
  };
}
