// Keeps the fetcharchive ZIP of the current data generation: built once per specs+trees version, on disk, shared by every download.

import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BuiltArchive } from "./archive-builder.js";
import { fileIdentity } from "./download-envelope.js";

/** A download's hold on the current archive: stream `size` bytes from `handle`, then `release()`. */
export interface ArchiveLease {
  readonly handle: FileHandle;
  readonly size: number;
  release(): void;
}

interface Generation {
  readonly identity: string;
  readonly handle: FileHandle;
  readonly size: number;
  /** Where the file is, when it could not be unlinked while open (some file systems). */
  readonly leftover: string | undefined;
  readers: number;
  superseded: boolean;
}

/** What the cache reports to the server's logger. */
export interface ArchiveEvents {
  /** A build finished (`built.hasBlankLine` is worth a warning). */
  built(built: BuiltArchive, durationMs: number): void;
  /** A build failed; the same data is not tried again until a file changes. */
  failed(error: unknown): void;
}

/**
 * The archive of the data generation being served. The first fetcharchive after the specs or
 * trees file changed (a new inode, size or mtime: a sync renames new files into place) builds the
 * archive from the two files as opened then; requests arriving meanwhile share that build.
 *
 * Kept on disk, not in memory: the archive is about the size of the specs and trees together
 * (16.7 MB on full-size data, more as the database grows), a server already holds the engine's
 * data in memory, and every download streams with positional reads from one shared descriptor.
 * The file is written in a private directory under the system's temporary directory and unlinked
 * as soon as it is open, so it needs no write access to the data directory and nothing is left
 * behind, even by a killed process. A superseded archive is closed once its last download ends.
 */
export class ArchiveCache {
  readonly #events: ArchiveEvents;
  readonly #tempRoot: string;
  #current: Generation | undefined;
  #pending: { identity: string; result: Promise<Generation> } | undefined;
  #failed: { identity: string; error: unknown } | undefined;

  /** `tempRoot`: where build directories are made (default: the system's temporary directory). */
  constructor(events: ArchiveEvents, tempRoot: string = tmpdir()) {
    this.#events = events;
    this.#tempRoot = tempRoot;
  }

  /** A lease on the archive of `specsFile` + `treesFile` as they are now. Rejects when they cannot make one. */
  async acquire(specsFile: string, treesFile: string): Promise<ArchiveLease> {
    const specs = await open(specsFile, "r");
    let trees: FileHandle;
    try {
      trees = await open(treesFile, "r");
    } catch (error) {
      await specs.close();
      throw error;
    }
    let generation: Generation;
    let handedOver = false;
    try {
      const [specsStat, treesStat] = await Promise.all([specs.stat(), trees.stat()]);
      const identity = `${fileIdentity(specsStat)}|${fileIdentity(treesStat)}`;
      if (this.#current?.identity === identity) generation = this.#current;
      else if (this.#failed?.identity === identity) throw this.#failed.error;
      else if (this.#pending?.identity === identity) generation = await this.#pending.result;
      else {
        handedOver = true;
        const result = this.#build(
          identity,
          { handle: specs, size: specsStat.size },
          { handle: trees, size: treesStat.size },
        );
        this.#pending = { identity, result };
        generation = await result;
      }
    } finally {
      if (!handedOver) await Promise.all([specs.close(), trees.close()]).catch(() => undefined);
    }
    generation.readers++;
    let released = false;
    return {
      handle: generation.handle,
      size: generation.size,
      release: () => {
        if (released) return;
        released = true;
        generation.readers--;
        this.#closeIfDone(generation);
      },
    };
  }

  async #build(
    identity: string,
    specs: { handle: FileHandle; size: number },
    trees: { handle: FileHandle; size: number },
  ): Promise<Generation> {
    const started = performance.now();
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(this.#tempRoot, "hd3-archive-"));
      const file = join(dir, "ultimate.zip");
      // The ZIP writer (yazl) loads with the first archive asked for: a server whose clients never
      // ask for one starts without it.
      const { buildArchive } = await import("./archive-builder.js");
      const built = await buildArchive(specs, trees, file, (await trees.handle.stat()).mtime);
      const handle = await open(file, "r");
      const leftover = await rm(dir, { recursive: true, force: true }).then(
        () => undefined,
        () => dir,
      );
      const generation: Generation = {
        identity,
        handle,
        size: built.bytes,
        leftover,
        readers: 0,
        superseded: false,
      };
      const previous = this.#current;
      this.#current = generation;
      this.#failed = undefined;
      if (previous !== undefined) {
        previous.superseded = true;
        this.#closeIfDone(previous);
      }
      this.#events.built(built, performance.now() - started);
      return generation;
    } catch (error) {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      this.#failed = { identity, error };
      this.#events.failed(error);
      throw error;
    } finally {
      if (this.#pending?.identity === identity) this.#pending = undefined;
      await Promise.all([specs.handle.close(), trees.handle.close()]).catch(() => undefined);
    }
  }

  /** Lets go of the built archive once its downloads end; a later `acquire` builds it again. */
  release(): void {
    const current = this.#current;
    if (current === undefined) return;
    this.#current = undefined;
    current.superseded = true;
    this.#closeIfDone(current);
  }

  #closeIfDone(generation: Generation): void {
    if (!generation.superseded || generation.readers > 0) return;
    generation.handle.close().catch(() => undefined);
    if (generation.leftover !== undefined)
      rm(generation.leftover, { recursive: true, force: true }).catch(() => undefined);
  }
}
