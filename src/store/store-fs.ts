// The few file-system calls the data store makes, injectable so tests can simulate a full disk or a kill.

import { constants } from "node:fs";
import {
  copyFile,
  link,
  mkdir,
  open,
  readdir,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { dirname } from "node:path";

/** File-system operations used by the data store (all promise-based, Node semantics). */
export interface StoreFileSystem {
  mkdir(dir: string): Promise<void>;
  stat(file: string): Promise<{ size: number; isFile(): boolean }>;
  rename(from: string, to: string): Promise<void>;
  /** Removes a file. No longer used by the store (it removes with `remove`). */
  unlink?(file: string): Promise<void>;
  /**
   * Copies (or hard-links) `from` to `to`, which must not exist. No longer used by the store (it
   * copies with `copyFile`).
   */
  copy?(from: string, to: string): Promise<void>;
  /**
   * Copies `from` to `to`, which must not exist, as a file of its own (never a hard link: a
   * write into one must not change the other). Default: Node's, cloning where the file system can.
   */
  copyFile?(from: string, to: string): Promise<void>;
  /** Flushes a file (or a directory entry list) to the disk. */
  fsync(path: string): Promise<void>;
  /** Creates or replaces a small file. Default: Node's. */
  writeFile?(file: string, text: string): Promise<void>;
  /** The names in a directory. Default: Node's. */
  readdir?(dir: string): Promise<string[]>;
  /** Removes a file or a directory with its contents; nothing to remove is not an error. Default: Node's. */
  remove?(path: string): Promise<void>;
  /** Creates a symbolic link at `path` to `target` (relative to the link's directory). Default: Node's. */
  symlink?(target: string, path: string): Promise<void>;
  /** Where a symbolic link points; rejects for anything else. Default: Node's. */
  readlink?(path: string): Promise<string>;
}

/**
 * Creates `dir` and its missing parents. Not `mkdir(dir, { recursive: true })`: on a read-only
 * file system that reports ENOENT for a directory that cannot be made, where this reports EROFS;
 * and under `/proc`, or below a symbolic link to nothing, it never returns, where this rejects.
 */
export async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    if (await isDirectoryAfter(error, dir)) return;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(dir) === dir) throw error;
    await makeDirectory(dirname(dir));
    // The parent exists now, so ENOENT again is final: asking again would loop for ever.
    await mkdir(dir).catch(async (again: unknown) => {
      if (!(await isDirectoryAfter(again, dir))) throw again;
    });
  }
}

/** Whether `mkdir` failed only because `dir` is a directory already. */
async function isDirectoryAfter(error: unknown, dir: string): Promise<boolean> {
  return (error as NodeJS.ErrnoException).code === "EEXIST" && (await stat(dir)).isDirectory();
}

/** The real file system. `copy` hard-links when it can and copies otherwise; `copyFile` always copies. */
export const nodeStoreFileSystem: Required<StoreFileSystem> = {
  mkdir: makeDirectory,
  stat: (file) => stat(file),
  rename: (from, to) => rename(from, to),
  unlink: (file) => unlink(file),
  async copy(from, to) {
    try {
      await link(from, to);
    } catch {
      await copyFile(from, to, constants.COPYFILE_EXCL);
    }
  },
  async fsync(path) {
    const handle = await open(path, "r");
    try {
      await handle.sync();
    } catch (error) {
      // Some platforms cannot fsync a directory; the data itself was flushed already.
      if (
        (error as NodeJS.ErrnoException).code !== "EISDIR" &&
        (error as NodeJS.ErrnoException).code !== "EINVAL"
      ) {
        throw error;
      }
    } finally {
      await handle.close();
    }
  },
  copyFile: (from, to) => copyFile(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE),
  writeFile: (file, text) => writeFile(file, text),
  readdir: (dir) => readdir(dir),
  remove: (path) => rm(path, { recursive: true, force: true }),
  symlink: (target, path) => symlink(target, path),
  readlink: (path) => readlink(path),
};
