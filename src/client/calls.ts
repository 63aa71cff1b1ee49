// The cloud client's calls over the wire: loaded on a client's first call, with undici and digest-fetch.

import { downloadParsed, downloadToFile } from "./download.js";
import type { DownloadOptions, DownloadResult } from "./download-options.js";
import { MAX_DETECT_REPLY_VALUES, MAX_REPLY_DEPTH, MAX_REPLY_VALUES } from "./json-shape.js";
import {
  normaliseDetectReply,
  normaliseModelsReply,
  normaliseSpecsDownload,
  normaliseTreesDownload,
  normaliseVendorsReply,
  normaliseViewReply,
  normaliseWhatHasReply,
  parseJsonReply,
  type ReplyContext,
} from "./normalise.js";
import type { ResolvedClientOptions } from "./options.js";
import { readLimitedText } from "./read-body.js";
import { Transport } from "./transport.js";

/** How the JSON reply of each call is checked and normalised, by the client call's name. */
const REPLIES = {
  detect: normaliseDetectReply,
  vendors: normaliseVendorsReply,
  models: normaliseModelsReply,
  view: normaliseViewReply,
  whatHas: normaliseWhatHasReply,
} as const;

/** Each download call: the member that holds its payload, and how a parsed download is checked. */
const DOWNLOADS = {
  fetchSpecs: { payload: "devices", validate: normaliseSpecsDownload },
  fetchTrees: { payload: "trees", validate: normaliseTreesDownload },
} as const;

/** A client call answered with one JSON reply. */
export type ReplyCall = keyof typeof REPLIES;
/** The normalised reply of a {@link ReplyCall}. */
export type ReplyOf<C extends ReplyCall> = ReturnType<(typeof REPLIES)[C]>;
/** A client call that downloads data (parsed, or streamed to a file). */
export type DownloadCall = keyof typeof DOWNLOADS;
/** The parsed, normalised download of a {@link DownloadCall}. */
export type DownloadOf<C extends DownloadCall> = ReturnType<(typeof DOWNLOADS)[C]["validate"]>;

/**
 * The HTTP side of one `HdClient`: its transport (and proxy agent), and how each call's reply is
 * read. The client builds it on its first call, so a process that never calls the cloud never
 * loads undici, digest-fetch or yauzl. Arguments arrive checked by the client.
 */
export class ClientCalls {
  readonly #config: ResolvedClientOptions;
  readonly #transport: Transport;

  constructor(config: ResolvedClientOptions) {
    this.#config = config;
    this.#transport = new Transport(config);
  }

  /** Sends a call answered with one JSON reply, and resolves with the reply normalised. */
  json<C extends ReplyCall>(call: C, path: string, body: string, signal?: AbortSignal): Promise<ReplyOf<C>> {
    const normalise = REPLIES[call] as (raw: unknown, context: ReplyContext) => ReplyOf<C>;
    return this.#transport.request({
      call,
      path,
      body,
      signal,
      consume: async (response, context) =>
        normalise(
          parseJsonReply(
            await readLimitedText(response, context, this.#config.maxReplyBytes, {
              maxDepth: MAX_REPLY_DEPTH,
              maxValues: call === "detect" ? MAX_DETECT_REPLY_VALUES : MAX_REPLY_VALUES,
            }),
            context,
            response.headers.get("content-type"),
          ),
          context,
        ),
    });
  }

  /** Sends a download call: parsed without `toFile`, streamed to `toFile` with it. */
  download<C extends DownloadCall>(
    call: C,
    path: string,
    options: DownloadOptions,
  ): Promise<DownloadOf<C> | DownloadResult> {
    const { payload, validate } = DOWNLOADS[call];
    const { toFile } = options;
    return this.#transport.request<DownloadOf<C> | DownloadResult>({
      call,
      path,
      body: "{}",
      signal: options.signal,
      consume: (response, context, control) =>
        toFile === undefined
          ? downloadParsed(response, context, control, options, validate as (raw: unknown) => DownloadOf<C>)
          : downloadToFile(response, context, control, { ...options, toFile }, payload, validate),
    });
  }

  /** Sends `fetchArchive` and streams the ZIP to `options.toFile` (yauzl loads with the first archive). */
  async archive(path: string, options: DownloadOptions & { toFile: string }): Promise<DownloadResult> {
    const { downloadArchiveToFile } = await import("./download-archive.js");
    return this.#transport.request<DownloadResult>({
      call: "fetchArchive",
      path,
      body: "{}",
      signal: options.signal,
      consume: (response, context, control) => downloadArchiveToFile(response, context, control, options),
    });
  }

  /** Releases the proxy agent's connections, if a proxy is set. */
  close(): Promise<void> {
    return this.#transport.close();
  }
}
