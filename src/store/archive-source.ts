// ArchiveDataSource: a DataSource that downloads the fetcharchive ZIP once and writes the specs and trees files from it.

import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type KnownOptions, missingOption, objectWithMethods, optionsObject } from "../options.js";
import { ArchiveReader, writeSpecsFromArchive, writeTreesFromArchive } from "./archive-extract.js";
import type { DataSource, SyncDownloadOptions, SyncDownloadResult } from "./data-source.js";

/** What an archive source downloads with: `HdClient` fits. */
export interface ArchiveClient {
  /** Downloads the fetcharchive ZIP to `toFile`. */
  fetchArchive(options: SyncDownloadOptions): Promise<SyncDownloadResult>;
}

/** Options of {@link ArchiveDataSource}. */
export interface ArchiveDataSourceOptions {
  /** Where the archive comes from: an `HdClient` (or anything with `fetchArchive({ toFile })`). */
  client: ArchiveClient;
}

/** Every option name of {@link ArchiveDataSource}. */
const KNOWN_OPTIONS: KnownOptions<ArchiveDataSourceOptions> = { client: true };

interface HeldArchive {
  file: string;
  reader: ArchiveReader;
  /** Which of the two files have been written from it. */
  written: Set<"specs" | "trees">;
}

/**
 * A {@link DataSource} for accounts whose service offers the Ultimate archive (fetcharchive; the
 * vendor's kits prefer it, and `hd3 serve` answers it). Give it to a `DataStore` as `source`:
 * the store's sync then runs unchanged - both files downloaded to temporary files, validated by
 * building the engine's data, installed atomically, the data in use kept on any failure.
 *
 * The first of `fetchSpecs`/`fetchTrees` of a sync downloads the archive once, next to the file
 * asked for; each call writes its file from the archive (records and trees byte for byte, in
 * archive order, so tree key order is preserved); after the second the archive is removed. A
 * call for a file already written from the held archive starts over with a fresh download (a new
 * sync). `close()` removes an archive a failed sync left held.
 *
 * @example
 * const client = new HdClient({ username, secret, siteId, baseUrl: "http://127.0.0.1:8080" });
 * const store = new DataStore({ dir: "hd-data", source: new ArchiveDataSource({ client }) });
 * await store.sync();
 */
export class ArchiveDataSource implements DataSource {
  readonly #client: ArchiveClient;
  #held: HeldArchive | undefined;

  /** @throws {HdOptionError} naming the option for a missing or unusable `client`. */
  constructor(options: ArchiveDataSourceOptions) {
    const o = optionsObject<ArchiveDataSourceOptions>(options, {
      factory: "new ArchiveDataSource()",
      known: KNOWN_OPTIONS,
      usage: "{ client }",
    });
    const what = "an archive client such as an HdClient";
    this.#client =
      objectWithMethods<ArchiveClient>("client", o.client, ["fetchArchive"], what) ??
      missingOption("client", what);
  }

  /** Writes the specs download to `toFile` from the archive (downloading it first if needed). */
  fetchSpecs(options: SyncDownloadOptions): Promise<SyncDownloadResult> {
    return this.#write("specs", options);
  }

  /** Writes the trees download to `toFile` from the archive (downloading it first if needed). */
  fetchTrees(options: SyncDownloadOptions): Promise<SyncDownloadResult> {
    return this.#write("trees", options);
  }

  /** Removes an archive still held (after a sync that stopped between the two files). */
  async close(): Promise<void> {
    await this.#drop();
  }

  async #write(part: "specs" | "trees", options: SyncDownloadOptions): Promise<SyncDownloadResult> {
    try {
      let held = this.#held;
      if (held === undefined || held.written.has(part)) {
        await this.#drop();
        held = await this.#download(options);
        this.#held = held;
      }
      options.signal?.throwIfAborted();
      const bytes =
        part === "specs"
          ? await writeSpecsFromArchive(held.reader, options.toFile)
          : await writeTreesFromArchive(held.reader, options.toFile);
      held.written.add(part);
      if (held.written.size === 2) await this.#drop();
      return { file: options.toFile, bytes };
    } catch (error) {
      await rm(options.toFile, { force: true }).catch(() => undefined);
      await this.#drop();
      throw error;
    }
  }

  async #download(options: SyncDownloadOptions): Promise<HeldArchive> {
    const file = join(
      dirname(options.toFile),
      `hd3archive.${process.pid}-${randomBytes(4).toString("hex")}.zip.tmp`,
    );
    await this.#client.fetchArchive({
      toFile: file,
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    try {
      return { file, reader: await ArchiveReader.open(file), written: new Set() };
    } catch (error) {
      await rm(file, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async #drop(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined) return;
    held.reader.close();
    await rm(held.file, { force: true }).catch(() => undefined);
  }
}
