// What an engine says about its data, read without loading the engine's modules.

/** Facts about the data an engine is using. */
export interface EngineDataInfo {
  /** `_notice.generated` of the specs download, when present. */
  readonly specsGenerated: string | undefined;
  /** `_notice.generated` of the trees download, when present. */
  readonly treesGenerated: string | undefined;
  /** Device records in the specs. */
  readonly devices: number;
  /** Extra records in the specs. */
  readonly extras: number;
  /** Tree names in the trees download. */
  readonly trees: readonly string[];
  /** Device ids the trees name that have no record (detections landing there answer 255). */
  readonly missingDeviceIds: number;
  /** Filter/match keys whose document order was lost because the trees came as a parsed object. */
  readonly reorderedKeys: number;
  /** The sieve implementation. */
  readonly matcher: "compiled" | "naive";
  /** When the data set was built. */
  readonly loadedAt: Date;
  /** How long building it took, in milliseconds (reading files included). */
  readonly loadMs: number;
  /** The specs file, when loaded from files. */
  readonly specsFile: string | undefined;
  /** The trees file, when loaded from files. */
  readonly treesFile: string | undefined;
  /**
   * Each file as it was read, when loaded from files: `dev:ino:size:mtimeMs`. A file at
   * `specsFile` or `treesFile` with another signature is not the one loaded (a pair written over
   * it since, which the engine may have refused).
   */
  readonly fileSignatures: { readonly specs: string; readonly trees: string } | undefined;
  /**
   * The snapshot the data set was read from (see `LocalEngine.fromSnapshot`), else `undefined`.
   * A snapshot read for a data directory's pair names that pair's files above as well.
   */
  readonly snapshotFile: string | undefined;
}

/** What an engine says about its data (a `LocalEngine`'s `dataInfo`), else `undefined`. */
export function dataInfoOf(engine: unknown): EngineDataInfo | undefined {
  const info = (engine as { dataInfo?: unknown } | undefined)?.dataInfo;
  return typeof info === "object" && info !== null ? (info as EngineDataInfo) : undefined;
}

/** What identifies a file's contents as read: device, inode, size and modification time (`dataInfo.fileSignatures`). */
export function fileSignature(stat: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}
