// HdClient: the typed cloud client for every call of the Device Detection Web API v3.

import { describePrivateHeaderRule, refusedHeaderName } from "../detection-header-names.js";
import { HdArgumentError } from "../errors.js";
import { warnOnce } from "../logger.js";
import type {
  Detector,
  DetectParams,
  DetectReply,
  DeviceCatalog,
  HeadersInput,
  ModelsReply,
  SpecsDownload,
  TreesDownload,
  VendorsReply,
  ViewReply,
  WhatHasReply,
} from "../types.js";
import type { ClientCalls, DownloadCall, DownloadOf, ReplyCall, ReplyOf } from "./calls.js";
import type { ArchiveDownloadOptions } from "./download-archive.js";
import type { DownloadOptions, DownloadResult } from "./download-options.js";
import { type HdClientOptions, type ResolvedClientOptions, resolveClientOptions } from "./options.js";

/** Percent-encodes one path segment (`Sony Ericsson` → `Sony%20Ericsson`, `N95/8GB` → `N95%2F8GB`). */
function pathSegment(call: string, argument: string, value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new HdArgumentError(`${call}: \`${argument}\` must be a non-empty string.`);
  }
  if (value === "." || value === "..") {
    throw new HdArgumentError(`${call}: \`${argument}\` cannot be "." or ".." (URL paths collapse them).`);
  }
  try {
    return encodeURIComponent(value);
  } catch {
    throw new HdArgumentError(`${call}: \`${argument}\` is not well-formed Unicode.`);
  }
}

/** The names a `detect` call adds to the client's allow-list (`params.allowHeaders`), checked. */
function extraHeaderNames(value: unknown): readonly string[] {
  if (value === undefined) return [];
  const notNames = () =>
    new HdArgumentError("detect: `allowHeaders` must be a list of lower-case header names.");
  if (!Array.isArray(value)) throw notNames();
  const refused = refusedHeaderName(value, true);
  if (refused === undefined) return value;
  if (refused.rule === undefined) throw notNames();
  throw new HdArgumentError(
    `detect: \`allowHeaders\` names "${refused.name}", which carries credentials or personal data: ${describePrivateHeaderRule(refused.rule)} refuses it; it is never sent.`,
  );
}

/**
 * The detect request body: the allowed headers (`allowed`, plus `params.allowHeaders`) keyed by
 * lower-case name (repeated values joined with `, ` as Node joins them), `options` joined with
 * commas, and `ipaddress`. Every other header stays in the process.
 */
function detectBody(
  headers: HeadersInput,
  params: DetectParams | undefined,
  allowed: ReadonlySet<string>,
): string {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw new HdArgumentError("detect: `headers` must be an object of header names and values.");
  }
  if (params !== undefined && (typeof params !== "object" || params === null)) {
    throw new HdArgumentError("detect: `params` must be an object.");
  }
  const { options, ipAddress, signal, allowHeaders } = params ?? {};
  const extra = extraHeaderNames(allowHeaders);
  const body: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) continue;
    const key = name.toLowerCase();
    if (!allowed.has(key) && !extra.includes(key)) continue;
    const text = Array.isArray(value) ? value.join(", ") : String(value);
    const previous = body[key];
    body[key] = previous === undefined ? text : `${previous}, ${text}`;
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new HdArgumentError("detect: `signal` must be an AbortSignal.");
  }
  if (options !== undefined) {
    if (!Array.isArray(options) || options.some((word) => typeof word !== "string" || word.trim() === "")) {
      throw new HdArgumentError(
        'detect: `options` must be a list of option words such as ["hd_specs", "geoip"].',
      );
    }
    if (options.length > 0) body.options = options.map((word) => word.trim()).join(",");
  }
  if (ipAddress !== undefined) {
    if (typeof ipAddress !== "string") throw new HdArgumentError("detect: `ipAddress` must be a string.");
    body.ipaddress = ipAddress;
  }
  return JSON.stringify(body);
}

function checkDownloadOptions(call: string, options: unknown): DownloadOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null)
    throw new HdArgumentError(`${call}: options must be an object.`);
  const { toFile, onProgress, signal } = options as Record<string, unknown>;
  if (toFile !== undefined && (typeof toFile !== "string" || toFile === "")) {
    throw new HdArgumentError(`${call}: \`toFile\` must be a non-empty path.`);
  }
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw new HdArgumentError(`${call}: \`onProgress\` must be a function.`);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new HdArgumentError(`${call}: \`signal\` must be an AbortSignal.`);
  }
  return options as DownloadOptions;
}

/**
 * The cloud client. Every call is one HTTP request (`POST {baseUrl}/apiv3/....json`) with a
 * pre-computed Digest `Authorization` header; replies are normalised (numeric `status`, lists
 * as lists) and any non-zero API status rejects with a typed error.
 *
 * ```ts
 * const client = new HdClient({ username: "apiuser", secret: "apisecret", siteId: 12345 });
 * const reply = await client.detect({ "user-agent": req.headers["user-agent"] });
 * ```
 *
 * `detect` fits the {@link Detector} seam, except that "nothing found" (301) rejects with
 * `HdNotFoundError` instead of resolving.
 */
export class HdClient implements Detector, DeviceCatalog {
  readonly #config: ResolvedClientOptions;
  readonly #site: string;
  /** The HTTP side, loaded once a client exists: importing the package never loads undici. */
  #calls: Promise<ClientCalls> | undefined;

  /**
   * Validates every option (throws `HdOptionError` naming the option), then starts loading the
   * HTTP side (undici, digest-fetch) in the background.
   */
  constructor(options: HdClientOptions) {
    this.#config = resolveClientOptions(options);
    this.#site = encodeURIComponent(this.#config.siteId);
    const plain = this.#config.baseUrls.filter((url) => url.startsWith("http:"));
    if (plain.length > 0) {
      warnOnce(this.#config.logger)(
        "HD_PLAIN_HTTP",
        "HdClient: plain HTTP base URL: request and reply data travel unencrypted (the secret itself is never sent). Use https:// outside tests.",
        { urls: plain },
      );
    }
    // Loaded now rather than on the first call, so that an app's first request does not spend
    // its time budget (the middleware's `timeoutMs`) loading modules. Calls report a failed load.
    this.#wire().catch(() => undefined);
  }

  /** The base URLs in the order they are tried: `baseUrl`, then `failoverUrls`. */
  get baseUrls(): readonly string[] {
    return [...this.#config.baseUrls];
  }

  /**
   * The HTTP side, loaded and built once. Calls made while it loads share the one load and, if it
   * fails (a module missing from a broken install), reject with its error; the next call loads again.
   */
  #wire(): Promise<ClientCalls> {
    this.#calls ??= import("./calls.js").then(
      ({ ClientCalls }) => new ClientCalls(this.#config),
      (error: unknown) => {
        this.#calls = undefined;
        throw error;
      },
    );
    return this.#calls;
  }

  async #json<C extends ReplyCall>(
    call: C,
    path: string,
    body: string,
    signal?: AbortSignal,
  ): Promise<ReplyOf<C>> {
    return (await this.#wire()).json(call, path, body, signal);
  }

  /**
   * Detects a device from request headers (`POST /apiv3/site/detect/{siteId}.json`). Only the
   * detection headers leave the process (the middleware's allow-list, plus the client's and the
   * call's `allowHeaders`), so `client.detect(req.headers)` sends no cookie, credential or subscriber id.
   * Resolves with status 0; rejects with `HdNotFoundError` (301, `error.reply.class` is
   * `Unknown`), `HdLicenceError` (229) or `HdApiError` for any other non-zero status. Aborting
   * `params.signal` stops the call, retries included, and rejects with the signal's reason.
   */
  async detect(headers: HeadersInput, params?: DetectParams): Promise<DetectReply> {
    const body = detectBody(headers, params, this.#config.detectionHeaders);
    const path = `/apiv3/site/detect/${this.#site}.json`;
    return this.#json("detect", path, body, params?.signal);
  }

  /** Lists all vendors, sorted (`POST /apiv3/device/vendors.json`). */
  async vendors(): Promise<VendorsReply> {
    return this.#json("vendors", "/apiv3/device/vendors.json", "{}");
  }

  /** Lists the models of one vendor, sorted (`POST /apiv3/device/models/{vendor}.json`). */
  async models(vendor: string): Promise<ModelsReply> {
    const path = `/apiv3/device/models/${pathSegment("models", "vendor", vendor)}.json`;
    return this.#json("models", path, "{}");
  }

  /**
   * The record of one device (`POST /apiv3/device/view/{vendor}/{model}.json`).
   * No such device rejects with `HdNotFoundError` (301).
   */
  async view(vendor: string, model: string): Promise<ViewReply> {
    const path = `/apiv3/device/view/${pathSegment("view", "vendor", vendor)}/${pathSegment("view", "model", model)}.json`;
    return this.#json("view", path, "{}");
  }

  /**
   * The devices whose `property` contains `value` (`POST /apiv3/device/whathas/{property}/{value}.json`).
   * A reply without `status` (as the contract's example shows) is normalised to `status: 0`, `message: "OK"`.
   */
  async whatHas(property: string, value: string): Promise<WhatHasReply> {
    const path = `/apiv3/device/whathas/${pathSegment("whatHas", "property", property)}/${pathSegment("whatHas", "value", value)}.json`;
    return this.#json("whatHas", path, "{}");
  }

  /**
   * Downloads the device database (`POST /apiv3/site/fetchspecs/{siteId}.json`; Ultimate
   * licence). Without `toFile` resolves with the parsed, normalised download; with `toFile`
   * streams it to that path and resolves with `{ file, bytes }`. Status 229 rejects with
   * `HdLicenceError` (and removes the file).
   */
  fetchSpecs(options?: DownloadOptions & { toFile?: undefined }): Promise<SpecsDownload>;
  fetchSpecs(options: DownloadOptions & { toFile: string }): Promise<DownloadResult>;
  fetchSpecs(options?: DownloadOptions): Promise<SpecsDownload | DownloadResult>;
  async fetchSpecs(options?: DownloadOptions): Promise<SpecsDownload | DownloadResult> {
    return this.#download("fetchSpecs", "fetchspecs", options);
  }

  /**
   * Downloads the detection trees (`POST /apiv3/site/fetchtrees/{siteId}.json`; Ultimate
   * licence). Parsed data loses the document order of integer-like keys (a JavaScript object
   * rule), and local detection needs that order: for local detection pass `toFile` and let
   * the engine read the file.
   */
  fetchTrees(options?: DownloadOptions & { toFile?: undefined }): Promise<TreesDownload>;
  fetchTrees(options: DownloadOptions & { toFile: string }): Promise<DownloadResult>;
  fetchTrees(options?: DownloadOptions): Promise<TreesDownload | DownloadResult>;
  async fetchTrees(options?: DownloadOptions): Promise<TreesDownload | DownloadResult> {
    return this.#download("fetchTrees", "fetchtrees", options);
  }

  /**
   * Downloads the Ultimate archive (`POST /apiv3/site/fetcharchive/{siteId}.json`): a ZIP of
   * `Device_<id>.json`, `Extra_<id>.json` and one `<tree name>.json` per tree, for accounts whose
   * service offers it (`hd3 serve` does). Streams it to `toFile` (required), checks it is a
   * complete ZIP archive, and resolves with `{ file, bytes }`. Status 229 rejects with
   * `HdLicenceError`; on any failure the file is removed. To sync from it, see `ArchiveDataSource`.
   */
  async fetchArchive(options: ArchiveDownloadOptions): Promise<DownloadResult> {
    const checked = checkDownloadOptions("fetchArchive", options);
    const { toFile } = checked;
    if (toFile === undefined) {
      throw new HdArgumentError("fetchArchive: `toFile` is required (the archive is a ZIP file).");
    }
    const path = `/apiv3/site/fetcharchive/${this.#site}.json`;
    return (await this.#wire()).archive(path, { ...checked, toFile });
  }

  async #download<C extends DownloadCall>(
    call: C,
    endpoint: string,
    rawOptions: DownloadOptions | undefined,
  ): Promise<DownloadOf<C> | DownloadResult> {
    const options = checkDownloadOptions(call, rawOptions);
    const path = `/apiv3/site/${endpoint}/${this.#site}.json`;
    return (await this.#wire()).download(call, path, options);
  }

  /** Releases the proxy agent's connections, if a proxy is set. Do not use the client afterwards. */
  async close(): Promise<void> {
    // A load that failed left nothing open.
    const calls = await this.#calls?.catch(() => undefined);
    await calls?.close();
  }
}
