// Plain words for the file-system failures a user can act on: a full disk, a read-only directory, missing permission.

/** What each error code means to the person who has to fix it. */
const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
};

/**
 * The file-system problem behind `error` (or its `cause`, a few levels down), in plain words with
 * its code: `the disk is full (ENOSPC)`. Undefined when it is none of the ones a user can act on.
 */
export function fileProblem(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code in FILE_PROBLEMS) return `${FILE_PROBLEMS[code]} (${code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
