// `hd3 sync`: downloads the specs and trees into the data directory through the DataStore.

import type { DataSource } from "../../store/data-source.js";
import { booleanFlag, type CommandContext, dataDir } from "../context.js";
import { openClient, stderrLogger } from "../data-source.js";
import { printJson, printPairs } from "../output.js";
import { formatBytes, ProgressBar } from "../progress.js";

/**
 * Runs `hd3 sync` with `DataStore.sync`: both files download into a new generation directory,
 * are validated by building the engine's data from them, and only then does one rename of the
 * directory's pointer select them (the previous pair is kept). Any failure, a kill included,
 * leaves the previous pair in use. With
 * `--archive` the pair comes from one fetcharchive download (`ArchiveDataSource`), through the
 * same sync.
 */
export async function run(context: CommandContext): Promise<number> {
  const dir = dataDir(context);
  const client = await openClient(context);
  const fromArchive = booleanFlag(context, "archive");
  const { DataStore } = await import("../../store/data-store.js");
  let source: DataSource & { close?: () => Promise<void> } = client;
  if (fromArchive) {
    const { ArchiveDataSource } = await import("../../store/archive-source.js");
    source = new ArchiveDataSource({ client });
  }
  const store = new DataStore({ dir, source, logger: stderrLogger(context) });
  const quiet = booleanFlag(context, "quiet");
  const bar = new ProgressBar(context.io.stderr, !quiet);
  if (!quiet) {
    context.io.stderr.write(
      `hd3: syncing into ${dir}${fromArchive ? " from the fetcharchive archive" : ""}\n`,
    );
  }
  // With --archive the only download is the archive, reported while the specs are written.
  const label = (file: "specs" | "trees") => (fromArchive && file === "specs" ? "archive" : file);
  const received = { specs: 0, trees: 0 };
  let current: "specs" | "trees" | undefined;
  let result: Awaited<ReturnType<typeof store.sync>>;
  try {
    result = await store.sync({
      onProgress: ({ file, receivedBytes, totalBytes }) => {
        if (current === "specs" && file === "trees") bar.done(label("specs"), received.specs);
        current = file;
        received[file] = receivedBytes;
        bar.update(label(file), { receivedBytes, totalBytes });
      },
    });
  } finally {
    await source.close?.();
  }
  if (current !== "trees") bar.done(label("specs"), fromArchive ? received.specs : result.specsBytes);
  if (!fromArchive) bar.done("trees", result.treesBytes);
  const summary = {
    dir,
    specsFile: store.specsFile,
    treesFile: store.treesFile,
    specsBytes: result.specsBytes,
    treesBytes: result.treesBytes,
    devices: result.info.devices,
    extras: result.info.extras,
    specsGenerated: result.info.specsGenerated ?? "",
    treesGenerated: result.info.treesGenerated ?? "",
    seconds: Number((result.durationMs / 1000).toFixed(2)),
  };
  if (booleanFlag(context, "json")) {
    printJson(context.io, summary);
  } else {
    context.io.stdout.write(`Synced the device database into ${dir}\n`);
    printPairs(context.io, [
      ["specs", `${formatBytes(summary.specsBytes)}  generated ${summary.specsGenerated || "(not stated)"}`],
      ["trees", `${formatBytes(summary.treesBytes)}  generated ${summary.treesGenerated || "(not stated)"}`],
      ["devices", String(summary.devices)],
      ["extras", String(summary.extras)],
      ["time", `${summary.seconds} s`],
    ]);
  }
  return 0;
}
