// Picks where answers come from (synced local data, the cloud API or the sample database) and opens it.

import { isHdNotFoundError } from "../errors.js";
import type { Logger } from "../logger.js";
import type {
  DetectReply,
  DeviceRecord,
  HeadersInput,
  ModelsReply,
  ReplyStatus,
  VendorsReply,
  WhatHasReply,
} from "../types.js";
import { type CommandContext, credentials, dataDir, flag, note, timeoutMs } from "./context.js";
import { CliError, UsageError } from "./exit-codes.js";

/** The data sources `--source` accepts. */
export const SOURCE_KINDS = ["auto", "local", "cloud", "sample"] as const;

/** Which source answers. */
export type SourceKind = "local" | "cloud" | "sample";

/** A view reply, or the 301 reply when there is no such device. */
export type ViewAnswer = ReplyStatus & { device?: DeviceRecord | undefined };

/**
 * The calls the CLI makes, answered the same way by every source: "nothing found" (301) is a
 * reply, never an exception, so commands print it like any other answer.
 */
export interface AnswerSource {
  readonly kind: SourceKind;
  detect(headers: HeadersInput): Promise<DetectReply>;
  vendors(): Promise<VendorsReply>;
  models(vendor: string): Promise<ModelsReply>;
  view(vendor: string, model: string): Promise<ViewAnswer>;
  whatHas(property: string, value: string): Promise<WhatHasReply>;
}

/** File names of a synced cache directory. */
export const CACHE_FILES = { specs: "hd3specs.json", trees: "hd3trees.json" } as const;

/** True when the directory holds a non-empty synced specs file and trees file. */
async function hasSyncedData(dir: string): Promise<boolean> {
  const { hasCachedData } = await import("../store/data-store.js");
  return hasCachedData(dir);
}

/** A logger that writes the library's warnings to stderr. */
export function stderrLogger(context: CommandContext): Logger {
  return {
    warn(message) {
      context.io.stderr.write(`hd3: warning: ${message}\n`);
    },
  };
}

/** Turns a cloud 301 rejection into the reply it carries. */
async function orReply<T>(call: Promise<T>): Promise<T | (ReplyStatus & Record<string, unknown>)> {
  try {
    return await call;
  } catch (error) {
    if (isHdNotFoundError(error)) return error.reply;
    throw error;
  }
}

async function openLocal(
  context: CommandContext,
  kind: "local" | "sample",
  specsPath: string,
  treesPath: string,
): Promise<AnswerSource> {
  const { LocalEngine } = await import("../engine/local-engine.js");
  const engine = await LocalEngine.fromFiles(specsPath, treesPath, { logger: stderrLogger(context) });
  return {
    kind,
    detect: async (headers) => engine.detect(headers),
    vendors: async () => engine.vendors(),
    models: async (vendor) => engine.models(vendor),
    view: async (vendor, model) => engine.view(vendor, model),
    whatHas: async (property, value) => engine.whatHas(property, value),
  };
}

/** Creates the cloud client from the command's credentials and connection flags. */
export async function openClient(context: CommandContext) {
  const creds = credentials(context);
  if (creds === undefined) {
    throw new UsageError(
      "the cloud needs credentials: --username, --secret and --site-id (or HD_USERNAME, HD_SECRET, HD_SITE_ID)",
      context.command,
    );
  }
  const { HdClient } = await import("../client/index.js");
  const baseUrl = flag(context, "base-url");
  const timeout = timeoutMs(context);
  return new HdClient({
    username: creds.username,
    secret: creds.secret,
    siteId: creds.siteId,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(timeout === undefined ? {} : { timeoutMs: timeout }),
    logger: stderrLogger(context),
  });
}

async function openCloud(context: CommandContext): Promise<AnswerSource> {
  const client = await openClient(context);
  return {
    kind: "cloud",
    detect: (headers) => orReply(client.detect(headers)) as Promise<DetectReply>,
    vendors: () => client.vendors(),
    models: (vendor) => client.models(vendor),
    view: (vendor, model) => orReply(client.view(vendor, model)) as Promise<ViewAnswer>,
    whatHas: (property, value) => client.whatHas(property, value),
  };
}

/**
 * Opens the source `--source` names. `auto` (the default) takes synced data from the data
 * directory when present, else the cloud when credentials are set, else the sample database.
 * A note on stderr says which one answers.
 */
export async function openSource(context: CommandContext): Promise<AnswerSource> {
  const wanted = flag(context, "source") ?? "auto";
  if (!(SOURCE_KINDS as readonly string[]).includes(wanted)) {
    throw new UsageError(
      `--source must be one of ${SOURCE_KINDS.join(", ")}, got ${JSON.stringify(wanted)}`,
      context.command,
    );
  }
  const dir = dataDir(context);
  let kind: SourceKind;
  if (wanted === "auto") {
    if (await hasSyncedData(dir)) kind = "local";
    else if (credentials(context) !== undefined) kind = "cloud";
    else kind = "sample";
  } else {
    kind = wanted as SourceKind;
  }
  switch (kind) {
    case "local": {
      if (!(await hasSyncedData(dir))) {
        throw new CliError(
          `no synced data in ${dir}: run \`hd3 sync\` first (or choose --source cloud or sample)`,
        );
      }
      note(context, `using local data in ${dir}`);
      const { currentPair } = await import("../store/data-layout.js");
      const pair = await currentPair(dir);
      return openLocal(context, "local", pair.specsFile, pair.treesFile);
    }
    case "cloud": {
      const source = await openCloud(context);
      note(
        context,
        `using the cloud API at ${flag(context, "base-url") ?? "https://api.handsetdetection.com"}`,
      );
      return source;
    }
    case "sample": {
      note(
        context,
        "using the SAMPLE database (about 60 devices). For the real one: a licence with downloads, then `hd3 sync`.",
      );
      const { sampleDataFiles } = await import("../engine/sample-engine.js");
      const { specsPath, treesPath } = sampleDataFiles();
      return openLocal(context, "sample", specsPath, treesPath);
    }
  }
}
