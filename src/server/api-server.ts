// A self-hosted API v3 server: an Express-mountable handler answering every call from local data.

import { type FileHandle, open } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import { detectWithEvidence } from "../core/detect-with-evidence.js";
import { errorMessage, isHdApiError } from "../errors.js";
import type { Logger } from "../logger.js";
import {
  invalidOption,
  type KnownOptions,
  loggerOption,
  millisecondsOption,
  missingOption,
  numberOption,
  objectWithMethods,
  optionsObject,
  stringOption,
} from "../options.js";
import { SPECS_FILE_NAME, TREES_FILE_NAME } from "../store/data-layout.js";
import type {
  Detector,
  DeviceRecord,
  ModelsReply,
  ReplyStatus,
  VendorsReply,
  WhatHasReply,
} from "../types.js";
import { type ApiCall, type ApiRoute, matchApiRoute } from "./api-routes.js";
import { ArchiveCache, type ArchiveLease } from "./archive-cache.js";
import { detectInputFromBody } from "./detect-input.js";
import { API_V3_DIGEST_CHALLENGE, parseDigestHeader, verifyDigest } from "./digest-auth.js";
import { EnvelopePlans } from "./download-envelope.js";
import { readJsonBody } from "./read-json-body.js";
import { type BodyPart, bodyLength, sendFileParts } from "./send-file-parts.js";
import { type ServedFiles, servedFiles } from "./served-data.js";
import { type ApiUser, resolveUsers, type UserTable } from "./users.js";
import {
  detectWire,
  deviceErrorWire,
  modelsWire,
  siteStatusWire,
  vendorsWire,
  viewWire,
  type WireBody,
  whatHasWire,
} from "./wire-replies.js";

/** File names of a data directory, as fetchspecs and fetchtrees download them. */
export const DATA_FILE_NAMES = { specs: SPECS_FILE_NAME, trees: TREES_FILE_NAME } as const;

/** Default largest request body, in bytes (the same as `express.json()`). */
export const DEFAULT_MAX_BODY_BYTES = 100 * 1024;

/** Default time a client has to send its request headers, in milliseconds. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default time a client has to send its whole request (headers and body), in milliseconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** Default time an idle keep-alive connection stays open after a reply, in milliseconds. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/**
 * Default time a download may go without the client taking any bytes, in milliseconds: then its
 * connection is cut and its file closed.
 */
export const DEFAULT_SEND_TIMEOUT_MS = 30_000;
/** Default number of downloads one account may have in progress at once. */
export const DEFAULT_MAX_DOWNLOADS_PER_USER = 8;

/** API status and message a user without a download licence gets from fetchspecs/fetchtrees. */
export const NO_DOWNLOAD_LICENCE = {
  status: 229,
  message:
    "Digest authentication: you have no permission to download this file. Perhaps your licence has expired.",
} as const;

/**
 * What a self-hosted server answers from: a `LocalEngine`, an `HdClient` (the server then
 * proxies the cloud), or anything with the same methods. `view` may answer a reply without
 * `device` when nothing matches (status 301).
 */
export interface ApiServerEngine extends Detector {
  vendors(): VendorsReply | Promise<VendorsReply>;
  models(vendor: string): ModelsReply | Promise<ModelsReply>;
  view(
    vendor: string,
    model: string,
  ):
    | (ReplyStatus & { device?: DeviceRecord | undefined })
    | Promise<ReplyStatus & { device?: DeviceRecord | undefined }>;
  whatHas(property: string, value: string): WhatHasReply | Promise<WhatHasReply>;
}

/** Options of `createApiServer`. */
export interface ApiServerOptions {
  /** Answers detect and the device calls: a `LocalEngine`, or anything with the same methods. */
  engine: ApiServerEngine;
  /**
   * The accounts allowed in: `{ username, secret, downloads? }` (from `loadUsersFile` or inline).
   * `downloads: true` lets an account call fetchspecs, fetchtrees and fetcharchive; others get status 229.
   */
  users: readonly ApiUser[] | UserTable;
  /**
   * A data directory as `hd3 sync` or `DataStore` write it, served by fetchspecs/fetchtrees (and as
   * a ZIP by fetcharchive): the pair the engine answers from when it was loaded from there, else
   * the pair the directory selects (its pointer's generation, else `hd3specs.json` and `hd3trees.json`).
   */
  dataDir?: string;
  /** The specs file fetchspecs serves. Default: from `dataDir`. */
  specsFile?: string;
  /** The trees file fetchtrees serves, byte for byte. Default: from `dataDir`. */
  treesFile?: string;
  /** Largest request body accepted, in bytes. Default 102400 (100 KiB); a larger one gets 413 and the connection closes. */
  maxBodyBytes?: number;
  /**
   * Time a client has to send its request headers, in milliseconds. Default 10000. Applied by the
   * server `createApiHttpServer` and `hd3 serve` create (Node's `server.headersTimeout`); a handler
   * mounted on your own server cannot see requests before their headers are complete.
   */
  headersTimeoutMs?: number;
  /**
   * Time a client has to send its whole request, in milliseconds; an incomplete one is answered
   * 408 and its connection closed. Default 20000; at least `headersTimeoutMs`. Applied by
   * `createApiHttpServer` and `hd3 serve` (Node's `server.requestTimeout`, checked every second),
   * and by this handler to the detect body it reads, on any server.
   */
  requestTimeoutMs?: number;
  /**
   * Time an idle keep-alive connection stays open after a reply, in milliseconds. Default 5000.
   * Applied by `createApiHttpServer` and `hd3 serve` (Node's `server.keepAliveTimeout`).
   */
  keepAliveTimeoutMs?: number;
  /**
   * Time a download (fetchspecs, fetchtrees, fetcharchive) may go without the client taking any
   * bytes, in milliseconds: then its connection is cut and its file closed, so a client that
   * never reads holds no socket or file for ever. Default 30000.
   */
  sendTimeoutMs?: number;
  /**
   * Downloads one account may have in progress at once; one more is answered HTTP 429 (API
   * status 429) and its connection closed. Default 8. A fleet syncing from this server with one
   * account needs at least as many as instances sync at once.
   */
  maxDownloadsPerUser?: number;
  /** Where failures of the engine or of file reads are reported. Default: console warnings. */
  logger?: Logger;
}

export const KNOWN_OPTIONS: KnownOptions<ApiServerOptions> = {
  engine: true,
  users: true,
  dataDir: true,
  specsFile: true,
  treesFile: true,
  maxBodyBytes: true,
  headersTimeoutMs: true,
  requestTimeoutMs: true,
  keepAliveTimeoutMs: true,
  sendTimeoutMs: true,
  maxDownloadsPerUser: true,
  logger: true,
};

/** Request counters of a running server, by call, plus refusals. */
export type ApiServerCounts = Record<
  ApiCall | "unauthorized" | "badRequest" | "failed" | "tooManyDownloads" | "stalledDownloads",
  number
>;

/** Something `next` can be: Express passes its own; plain `http` servers may pass nothing. */
export type NextFunctionLike = (error?: unknown) => void;

/**
 * The server: a request handler to mount with `app.use(server)` or `app.use("/prefix", server)`
 * in Express 4 or 5, or to call from `http.createServer`. Requests for other paths go to `next`
 * (or get a 404 when there is no `next`).
 */
export interface ApiServer {
  (req: IncomingMessage, res: ServerResponse, next?: NextFunctionLike): void;
  /**
   * Requests answered so far, by call; `unauthorized`, `badRequest`, `failed` and
   * `tooManyDownloads` count refusals, `stalledDownloads` the downloads cut by `sendTimeoutMs`.
   */
  readonly counts: Readonly<ApiServerCounts>;
  /** The limits in force, defaults filled in (what `createApiHttpServer` applies to its server). */
  readonly limits: Readonly<ApiServerLimits>;
  /**
   * Closes the built fetcharchive file once the downloads reading it end. Call it when the server
   * stops (`createApiHttpServer` does on its `close`); a later fetcharchive builds the archive again.
   */
  close(): void;
}

/** The request limits of a server, resolved. */
export interface ApiServerLimits {
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  sendTimeoutMs: number;
  maxDownloadsPerUser: number;
}

interface ResolvedConfig {
  engine: ApiServerEngine;
  users: UserTable;
  dataDir: string | undefined;
  /** The files named in the options (a `dataDir` fills in the others per request). */
  files: ServedFiles;
  limits: ApiServerLimits;
  logger: Logger;
}

/** A server time limit: whole milliseconds that Node's timers accept. */
function timeoutOption(option: string, value: unknown, fallback: number): number {
  return millisecondsOption(option, value, fallback, { integer: true });
}

function optionalPath(value: unknown, option: string): string | undefined {
  const path = stringOption(option, value);
  return path === undefined ? undefined : resolve(path);
}

function resolveOptions(options: ApiServerOptions): ResolvedConfig {
  const o = optionsObject<ApiServerOptions>(options, {
    factory: "createApiServer()",
    known: KNOWN_OPTIONS,
    usage: "{ engine, users }",
  });
  const methods = ["detect", "vendors", "models", "view", "whatHas"];
  const engine =
    objectWithMethods<ApiServerEngine>("engine", o.engine, methods, "a LocalEngine") ??
    missingOption("engine", "a LocalEngine");
  const users = o.users instanceof Map ? resolveUsers([...o.users.values()]) : resolveUsers(o.users);
  const dataDir = optionalPath(o.dataDir, "dataDir");
  const specsFile = optionalPath(o.specsFile, "specsFile");
  const treesFile = optionalPath(o.treesFile, "treesFile");
  const maxBodyBytes = numberOption(
    "maxBodyBytes",
    o.maxBodyBytes,
    { min: 1024, integer: true, unit: "bytes" },
    DEFAULT_MAX_BODY_BYTES,
  );
  const headersTimeoutMs = timeoutOption("headersTimeoutMs", o.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeoutMs = timeoutOption(
    "requestTimeoutMs",
    o.requestTimeoutMs,
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs),
  );
  if (requestTimeoutMs < headersTimeoutMs) {
    invalidOption(
      "requestTimeoutMs",
      `must be at least headersTimeoutMs (${headersTimeoutMs}).`,
      requestTimeoutMs,
    );
  }
  const keepAliveTimeoutMs = timeoutOption(
    "keepAliveTimeoutMs",
    o.keepAliveTimeoutMs,
    DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  );
  const sendTimeoutMs = timeoutOption("sendTimeoutMs", o.sendTimeoutMs, DEFAULT_SEND_TIMEOUT_MS);
  const maxDownloadsPerUser = numberOption(
    "maxDownloadsPerUser",
    o.maxDownloadsPerUser,
    { min: 1, integer: true, unit: "downloads" },
    DEFAULT_MAX_DOWNLOADS_PER_USER,
  );
  return {
    engine,
    users,
    dataDir,
    files: { specsFile, treesFile },
    limits: Object.freeze({
      maxBodyBytes,
      headersTimeoutMs,
      requestTimeoutMs,
      keepAliveTimeoutMs,
      sendTimeoutMs,
      maxDownloadsPerUser,
    }),
    logger: loggerOption("logger", o.logger),
  };
}

const COMMON_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
} as const;

function sendJson(
  res: ServerResponse,
  httpStatus: number,
  body: WireBody,
  extra: Record<string, string> = {},
) {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(httpStatus, {
    ...COMMON_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(text)),
    ...extra,
  });
  res.end(text);
}

/**
 * Answers a request that is refused before its body is read (401, 400, 404, 405, 413) and closes
 * the connection after the reply: keeping it open would make Node read and discard the whole
 * unread body first, which lets an unauthenticated client stream gigabytes into the server.
 */
function refuse(res: ServerResponse, httpStatus: number, body: WireBody, extra: Record<string, string> = {}) {
  sendJson(res, httpStatus, body, { ...extra, Connection: "close" });
}

function isSiteCall(call: ApiCall): boolean {
  return call === "detect" || call === "fetchspecs" || call === "fetchtrees" || call === "fetcharchive";
}

/** A server-made error reply: integer status for site calls, string status for device calls. */
function errorWire(call: ApiCall, status: number, message: string): WireBody {
  return isSiteCall(call) ? siteStatusWire(status, message) : deviceErrorWire(status, message);
}

/** The reply of an API error thrown by the engine (e.g. an `HdClient` used as the engine). */
function apiErrorReply(error: unknown): (ReplyStatus & Record<string, unknown>) | undefined {
  return isHdApiError(error) ? error.reply : undefined;
}

/**
 * Creates a self-hosted API v3 server answering detect, vendors, models, view, whathas,
 * fetchspecs, fetchtrees and fetcharchive from local data, in the wire shapes of the cloud
 * service, behind Digest authentication (realm, nonce and opaque `APIv3`, qop `auth`). Every JSON
 * reply carries `status` and `message` (downloads too), as the vendor's kits require. Detect is
 * POST only; the other calls accept POST and GET. A refused request is answered with
 * `Connection: close`, its body unread. Throws `HdOptionError` for bad options. For the vendor's
 * kits (raw spaces on request lines) and the header/keep-alive limits, serve it with
 * `createApiHttpServer`, or pass your server to `acceptRawSpaces`.
 *
 * @example
 * const engine = await LocalEngine.fromFiles("data/hd3specs.json", "data/hd3trees.json");
 * app.use(createApiServer({ engine, dataDir: "data", users: [{ username: "u", secret: "s", downloads: true }] }));
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const config = resolveOptions(options);
  const archives = new ArchiveCache({
    built(built, durationMs) {
      config.logger.info?.("self-hosted API server: built the fetcharchive archive", {
        code: "HD_SERVER_ARCHIVE_BUILT",
        bytes: built.bytes,
        devices: built.devices,
        extras: built.extras,
        trees: built.trees,
        durationMs: Math.round(durationMs),
      });
      if (built.hasBlankLine) {
        config.logger.warn(
          "self-hosted API server: the archive holds CR LF CR LF; the vendor's v3.2.0 PHP kit cuts a reply at its last blank line and cannot read it",
          { code: "HD_SERVER_ARCHIVE_BLANK_LINE" },
        );
      }
    },
    failed(error) {
      config.logger.warn(
        "self-hosted API server: cannot build the fetcharchive archive from the data files",
        {
          code: "HD_SERVER_ARCHIVE",
          error: errorMessage(error),
        },
      );
    },
  });
  const envelopes = new EnvelopePlans((file, problem) =>
    config.logger.warn("self-hosted API server: a data file is not one JSON object; serving it as it is", {
      code: "HD_SERVER_DATA_FILE_SHAPE",
      file,
      problem,
    }),
  );
  const counts: ApiServerCounts = {
    detect: 0,
    fetchspecs: 0,
    fetchtrees: 0,
    fetcharchive: 0,
    vendors: 0,
    models: 0,
    view: 0,
    whathas: 0,
    unauthorized: 0,
    badRequest: 0,
    failed: 0,
    tooManyDownloads: 0,
    stalledDownloads: 0,
  };
  /** Downloads in progress, by account. */
  const downloading = new Map<string, number>();

  /** Sends a download's body; counts it when the client stopped taking bytes and it was cut. */
  async function sendBody(res: ServerResponse, handle: FileHandle, parts: readonly BodyPart[]) {
    if ((await sendFileParts(res, handle, parts, config.limits.sendTimeoutMs)) === "stalled") {
      counts.stalledDownloads++;
    }
  }

  /**
   * Runs a download for `user` unless the account already has `maxDownloadsPerUser` in progress:
   * then answers 429 and closes the connection.
   */
  async function download(res: ServerResponse, user: string, send: () => Promise<void>) {
    const inProgress = downloading.get(user) ?? 0;
    if (inProgress >= config.limits.maxDownloadsPerUser) {
      counts.tooManyDownloads++;
      refuse(
        res,
        429,
        siteStatusWire(
          429,
          `Too many downloads in progress for this account (${config.limits.maxDownloadsPerUser}): try again once one has ended`,
        ),
        { "Retry-After": "5" },
      );
      return;
    }
    downloading.set(user, inProgress + 1);
    try {
      await send();
    } finally {
      const left = (downloading.get(user) ?? 1) - 1;
      if (left === 0) downloading.delete(user);
      else downloading.set(user, left);
    }
  }

  async function answer(route: ApiRoute, req: IncomingMessage, res: ServerResponse, user: ApiUser) {
    const { downloads } = user;
    const { engine } = config;
    switch (route.call) {
      case "detect": {
        const body = await readJsonBody(req, config.limits.maxBodyBytes, config.limits.requestTimeoutMs);
        if (!body.ok) {
          counts.badRequest++;
          // A body that was too large, cut off or not JSON ends the connection.
          refuse(res, body.httpStatus, siteStatusWire(body.httpStatus, body.message));
          return;
        }
        const input = detectInputFromBody(body.value);
        if (!input.ok) {
          counts.badRequest++;
          sendJson(res, 400, siteStatusWire(400, input.message));
          return;
        }
        counts.detect++;
        // As the middleware detects: client hints and the page script's cookie in the body count.
        // The reply keeps the API v3 shape: what decided it stays here.
        const { decidedBy, decisions, candidates, bot, ...reply } = await detectWithEvidence(
          engine,
          input.headers,
          input.params,
        );
        sendJson(res, 200, detectWire(reply));
        return;
      }
      case "fetchspecs":
      case "fetchtrees": {
        counts[route.call]++;
        if (!downloads) {
          sendJson(res, 200, siteStatusWire(NO_DOWNLOAD_LICENCE.status, NO_DOWNLOAD_LICENCE.message));
          return;
        }
        const call = route.call;
        await download(res, user.username, async () => {
          const files = await servedFiles(engine, config.dataDir, config.files);
          await sendDataFile(res, call === "fetchspecs" ? files.specsFile : files.treesFile);
        });
        return;
      }
      case "fetcharchive":
        counts.fetcharchive++;
        if (!downloads) {
          sendJson(res, 200, siteStatusWire(NO_DOWNLOAD_LICENCE.status, NO_DOWNLOAD_LICENCE.message));
          return;
        }
        await download(res, user.username, () => sendArchive(res));
        return;
      case "vendors":
        counts.vendors++;
        sendJson(res, 200, vendorsWire(await engine.vendors()));
        return;
      case "models":
        counts.models++;
        sendJson(res, 200, modelsWire(await engine.models(route.vendor)));
        return;
      case "view":
        counts.view++;
        sendJson(res, 200, viewWire(await engine.view(route.vendor, route.model)));
        return;
      case "whathas":
        counts.whathas++;
        sendJson(res, 200, whatHasWire(await engine.whatHas(route.property, route.value)));
        return;
    }
  }

  async function sendDataFile(res: ServerResponse, file: string | undefined) {
    if (file === undefined) {
      sendJson(res, 503, siteStatusWire(503, "This server has no data file configured for this call"));
      return;
    }
    let handle: FileHandle;
    try {
      handle = await open(file, "r");
    } catch (error) {
      config.logger.warn("self-hosted API server: cannot open data file", {
        code: "HD_SERVER_DATA_FILE",
        file,
        error: errorMessage(error),
      });
      sendJson(res, 503, siteStatusWire(503, "The data file for this call is not available"));
      return;
    }
    // Streamed from the opened handle: a data refresh that renames a new file into place
    // does not change what this reply sends.
    try {
      const stat = await handle.stat();
      const plan = await envelopes.plan(file, handle, stat);
      const parts: BodyPart[] =
        plan.kind === "splice"
          ? [
              { start: 0, end: plan.splice.insertAt },
              plan.splice.text,
              { start: plan.splice.insertAt, end: stat.size },
            ]
          : [{ start: 0, end: stat.size }];
      res.writeHead(200, {
        ...COMMON_HEADERS,
        "Content-Type": "application/json",
        "Content-Length": String(bodyLength(parts)),
      });
      await sendBody(res, handle, parts);
    } catch (error) {
      config.logger.warn("self-hosted API server: reading a data file failed", {
        code: "HD_SERVER_DATA_FILE",
        file,
        error: errorMessage(error),
      });
      if (res.headersSent) res.destroy();
      else sendJson(res, 503, siteStatusWire(503, "The data file for this call is not available"));
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async function sendArchive(res: ServerResponse) {
    const { specsFile, treesFile } = await servedFiles(config.engine, config.dataDir, config.files);
    if (specsFile === undefined || treesFile === undefined) {
      sendJson(res, 503, siteStatusWire(503, "This server has no data files configured for this call"));
      return;
    }
    let lease: ArchiveLease;
    try {
      lease = await archives.acquire(specsFile, treesFile);
    } catch (error) {
      // A build failure was reported by the cache (once per data version); a missing file was not.
      if ((error as NodeJS.ErrnoException).syscall === "open") {
        config.logger.warn("self-hosted API server: cannot open data file", {
          code: "HD_SERVER_DATA_FILE",
          error: errorMessage(error),
        });
      }
      sendJson(res, 503, siteStatusWire(503, "The archive of the data files is not available"));
      return;
    }
    try {
      res.writeHead(200, {
        ...COMMON_HEADERS,
        "Content-Type": "application/zip",
        "Content-Length": String(lease.size),
        "Content-Disposition": 'attachment; filename="ultimate.zip"',
      });
      await sendBody(res, lease.handle, [{ start: 0, end: lease.size }]);
    } catch (error) {
      config.logger.warn("self-hosted API server: reading the archive failed", {
        code: "HD_SERVER_ARCHIVE",
        error: errorMessage(error),
      });
      res.destroy();
    } finally {
      lease.release();
    }
  }

  const handler = (req: IncomingMessage, res: ServerResponse, next?: NextFunctionLike): void => {
    const url = req.url ?? "/";
    const match = matchApiRoute(url);
    if (match === undefined) {
      if (next !== undefined) next();
      else refuse(res, 404, { message: "Not found", status: 404 });
      return;
    }
    if ("badEncoding" in match) {
      counts.badRequest++;
      const message = "Bad request: the path is not validly percent-encoded";
      refuse(
        res,
        400,
        match.badEncoding === "site" ? siteStatusWire(400, message) : deviceErrorWire(400, message),
      );
      return;
    }
    const { route } = match;
    const method = req.method ?? "GET";
    const allowed = route.call === "detect" ? ["POST"] : ["POST", "GET"];
    if (!allowed.includes(method)) {
      counts.badRequest++;
      refuse(res, 405, errorWire(route.call, 405, `Method not allowed: use ${allowed.join(" or ")}`), {
        Allow: allowed.join(", "),
      });
      return;
    }
    const originalUrl = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl;
    const uri = typeof originalUrl === "string" ? originalUrl : url;
    const user = verifyDigest(parseDigestHeader(req.headers.authorization), { method, uri }, (name) =>
      config.users.get(name),
    );
    if (user === undefined) {
      counts.unauthorized++;
      refuse(res, 401, errorWire(route.call, 401, "Unauthorized: Digest authentication failed"), {
        "WWW-Authenticate": API_V3_DIGEST_CHALLENGE,
      });
      return;
    }
    answer(route, req, res, user).catch((error: unknown) => {
      const reply = apiErrorReply(error);
      if (reply !== undefined) {
        const status = Number(reply.status);
        const wire =
          route.call === "detect" ? detectWire(reply) : errorWire(route.call, status, reply.message);
        sendJson(res, 200, wire);
        return;
      }
      counts.failed++;
      config.logger.warn("self-hosted API server: a call failed", {
        code: "HD_SERVER_CALL_FAILED",
        call: route.call,
        error: errorMessage(error),
      });
      if (res.headersSent) res.destroy();
      else
        sendJson(
          res,
          500,
          errorWire(route.call, 500, "Internal error: the server could not answer this call"),
        );
    });
  };
  Object.defineProperty(handler, "counts", { value: counts, enumerable: true });
  Object.defineProperty(handler, "limits", { value: config.limits, enumerable: true });
  Object.defineProperty(handler, "close", { value: () => archives.release(), enumerable: true });
  return handler as ApiServer;
}
