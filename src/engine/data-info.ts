// What an engine says about its data, read without loading the engine's modules.

import type { EngineDataInfo } from "./engine-data.js";

/** What an engine says about its data (a `LocalEngine`'s `dataInfo`), else `undefined`. */
export function dataInfoOf(engine: unknown): EngineDataInfo | undefined {
  const info = (engine as { dataInfo?: unknown } | undefined)?.dataInfo;
  return typeof info === "object" && info !== null ? (info as EngineDataInfo) : undefined;
}

/** What identifies a file's contents as read: device, inode, size and modification time (`dataInfo.fileSignatures`). */
export function fileSignature(stat: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}
