// Notices a completed sync of a data directory (its pointer renamed): a watch on the directory, a slow stat poll as fallback.

import { type FSWatcher, type Stats, statSync, watch } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

/** Default time between two stat polls, in milliseconds: the fallback when the watch misses. */
const DEFAULT_POLL_INTERVAL_MS = 30_000;
/** Default time the files must hold still before a change counts, in milliseconds. */
const DEFAULT_SETTLE_MS = 250;

/** Options of {@link DataFollower}. */
export interface DataFollowerOptions {
  /**
   * The files to follow while the directory has no pointer: the store's flat specs and trees
   * files (`store.specsFile`, `store.treesFile`).
   */
  files: readonly string[];
  /**
   * The store's pointer file (`store.pointerFile`). While it exists, only its rename counts: what
   * a sync writes before it (a generation directory, temporary files) and the flat copies it
   * refreshes after it are no change.
   */
  pointerFile?: string | undefined;
  /** The directory to watch. Default: the first file's directory. */
  dir?: string | undefined;
  /**
   * Called once the files have changed and held still for `settleMs`; not called again until it
   * has settled. Its failures are the caller's to report: the follower only goes on following.
   */
  onChange: () => void | Promise<void>;
  /** Time between two stat polls, in milliseconds. Default 30,000. */
  pollIntervalMs?: number | undefined;
  /** Time the files must hold still before a change counts, in milliseconds. Default 250. */
  settleMs?: number | undefined;
  /** Watch the directory (`fs.watch`) besides polling. Default `true`. */
  watch?: boolean | undefined;
}

/** What identifies one file's contents, or `undefined` when it is not a non-empty file. */
function fileSignature(info: Stats): string | undefined {
  return info.isFile() && info.size > 0 ? `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}` : undefined;
}

/**
 * What identifies the files' current contents: device, inode, size and modification time of
 * each (a rename into place changes the inode, a rewrite the size or time); `undefined` while a
 * file is missing or empty (no complete pair to load).
 */
export async function filesSignature(files: readonly string[]): Promise<string | undefined> {
  const parts: string[] = [];
  for (const file of files) {
    const part = await stat(file).then(fileSignature, () => undefined);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return parts.join("|");
}

/**
 * What identifies the pair a directory selects: the pointer's signature while it exists (one
 * rename switches the pair), else the flat files' (see {@link filesSignature}).
 */
export async function pairSignature(
  pointerFile: string | undefined,
  files: readonly string[],
): Promise<string | undefined> {
  if (pointerFile !== undefined) {
    const pointer = await filesSignature([pointerFile]);
    if (pointer !== undefined) return `pointer:${pointer}`;
  }
  return filesSignature(files);
}

/** {@link pairSignature}, synchronously (once, at construction). */
function pairSignatureNow(pointerFile: string | undefined, files: readonly string[]): string | undefined {
  if (pointerFile !== undefined) {
    const pointer = filesSignatureNow([pointerFile]);
    if (pointer !== undefined) return `pointer:${pointer}`;
  }
  return filesSignatureNow(files);
}

/** {@link filesSignature}, synchronously. */
function filesSignatureNow(files: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const file of files) {
    const info = statSync(file, { throwIfNoEntry: false });
    const part = info === undefined ? undefined : fileSignature(info);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return parts.join("|");
}

/**
 * Follows a data directory so a running process picks up what `hd3 sync` left there, without a
 * restart. The directory is watched (`fs.watch`), and polled with `stat` every `pollIntervalMs`
 * in case the watch misses (network file systems, a replaced directory). With a pointer, a change
 * is a new pointer (the one rename that switches the pair); without one (a directory of earlier
 * versions, or written by hand), it is a change of either flat file, counted once both are
 * present and have held still for `settleMs`, so the two renames of such a writer give one
 * `onChange`. The directory as it is at construction is the baseline: only a later change counts.
 * Nothing here keeps the process alive.
 *
 * @example
 * const store = new DataStore({ dir });
 * const follower = new DataFollower({
 *   files: [store.specsFile, store.treesFile],
 *   pointerFile: store.pointerFile,
 *   onChange: () => reload(),
 * });
 * // ...
 * follower.close();
 */
export class DataFollower {
  readonly #files: readonly string[];
  readonly #pointerFile: string | undefined;
  readonly #onChange: () => void | Promise<void>;
  readonly #settleMs: number;
  readonly #poll: NodeJS.Timeout;
  #watcher: FSWatcher | undefined;
  #soon: NodeJS.Timeout | undefined;
  /** The signature last handed to `onChange` (or found at construction). */
  #baseline: string | undefined;
  #checking: Promise<void> | undefined;
  #again = false;
  #paused = 0;
  #closed = false;

  constructor(options: DataFollowerOptions) {
    this.#files = [...options.files];
    this.#pointerFile = options.pointerFile;
    this.#onChange = options.onChange;
    this.#settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.#baseline = pairSignatureNow(this.#pointerFile, this.#files);
    this.#poll = setInterval(() => {
      this.check().catch(() => undefined);
    }, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
    this.#poll.unref();
    if (options.watch !== false) this.#watch(options.dir ?? dirname(this.#files[0] ?? "."));
  }

  #watch(dir: string): void {
    try {
      const watcher = watch(dir, { persistent: false }, () => this.#nudge());
      // A watch that fails (the directory removed, too many watches) leaves the poll in charge.
      watcher.on("error", () => {
        watcher.close();
        if (this.#watcher === watcher) this.#watcher = undefined;
      });
      this.#watcher = watcher;
    } catch {
      this.#watcher = undefined;
    }
  }

  /** A burst of events (every chunk a download writes) gives one check, `settleMs` later. */
  #nudge(): void {
    if (this.#closed || this.#soon !== undefined) return;
    this.#soon = setTimeout(() => {
      this.#soon = undefined;
      this.check().catch(() => undefined);
    }, this.#settleMs);
    this.#soon.unref();
  }

  /** Whether the directory is watched (else only polled). */
  get watching(): boolean {
    return this.#watcher !== undefined;
  }

  /**
   * Looks at the files now and calls `onChange` if they changed and hold still. A check already
   * running is shared (and runs once more after, if asked for meanwhile). Never rejects.
   */
  check(): Promise<void> {
    if (this.#checking !== undefined) {
      this.#again = true;
      return this.#checking;
    }
    this.#checking = this.#run().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #run(): Promise<void> {
    do {
      this.#again = false;
      const changed = await this.#settled();
      if (changed === undefined) continue;
      this.#baseline = changed;
      try {
        await this.#onChange();
      } catch {
        // Reported by the caller's onChange; following goes on.
      }
    } while (this.#again && !this.#closed);
  }

  #signature(): Promise<string | undefined> {
    return pairSignature(this.#pointerFile, this.#files);
  }

  /** The new signature once it holds still for `settleMs`, or `undefined` when nothing changed. */
  async #settled(): Promise<string | undefined> {
    let seen = await this.#signature();
    while (!this.#closed && this.#paused === 0 && seen !== undefined && seen !== this.#baseline) {
      await delay(this.#settleMs, undefined, { ref: false });
      const now = await this.#signature();
      if (now === seen) return this.#closed || this.#paused > 0 ? undefined : seen;
      seen = now;
    }
    return undefined;
  }

  /**
   * Stops counting changes, while this process writes the files itself (its own sync). Each
   * call needs one {@link resume}.
   */
  pause(): void {
    this.#paused++;
  }

  /** Counts changes again, from the files as they are now (what this process wrote is known). */
  async resume(): Promise<void> {
    if (this.#paused === 0) return;
    this.#baseline = await this.#signature();
    this.#paused--;
  }

  /** Stops watching and polling. Idempotent. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#poll);
    if (this.#soon !== undefined) clearTimeout(this.#soon);
    this.#soon = undefined;
    this.#watcher?.close();
    this.#watcher = undefined;
  }
}
