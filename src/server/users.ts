// The accounts of a self-hosted API v3 server: validation of the list and of a users file.

import { readFile } from "node:fs/promises";
import { describeOptionValue, HdOptionError } from "../errors.js";

/** One account of a self-hosted API v3 server. */
export interface ApiUser {
  /** API username (the Digest user name). */
  username: string;
  /** API secret (the Digest password). */
  secret: string;
  /** May download specs and trees (an "Ultimate" licence). Default `false`: those calls answer 229. */
  downloads?: boolean;
}

const USER_KEYS: { readonly [K in keyof Required<ApiUser>]: true } = {
  username: true,
  secret: true,
  downloads: true,
};

/** A validated, frozen account table keyed by username. */
export type UserTable = ReadonlyMap<string, Readonly<Required<ApiUser>>>;

/**
 * Validates a list of accounts and indexes it by username. Throws `HdOptionError` naming
 * `option[i].field` for a missing or empty username or secret, a non-boolean `downloads`, an
 * unknown key, or a username given twice. Secrets never appear in messages.
 */
export function resolveUsers(value: unknown, option = "users"): UserTable {
  if (!Array.isArray(value) || value.length === 0) {
    throw new HdOptionError(
      option,
      `expected a non-empty array of { username, secret, downloads? }, got ${describeOptionValue(
        Array.isArray(value) ? value : typeof value,
      )}`,
    );
  }
  const table = new Map<string, Readonly<Required<ApiUser>>>();
  value.forEach((entry: unknown, index) => {
    const at = `${option}[${index}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new HdOptionError(at, `expected an object { username, secret, downloads? }`);
    }
    const record = entry as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!Object.hasOwn(USER_KEYS, key)) {
        throw new HdOptionError(`${at}.${key}`, "unknown key; valid keys are username, secret, downloads");
      }
    }
    const { username, secret, downloads } = record;
    if (typeof username !== "string" || username === "") {
      throw new HdOptionError(
        `${at}.username`,
        `expected a non-empty string, got ${describeOptionValue(username)}`,
      );
    }
    if (typeof secret !== "string" || secret === "") {
      throw new HdOptionError(`${at}.secret`, "expected a non-empty string");
    }
    if (downloads !== undefined && typeof downloads !== "boolean") {
      throw new HdOptionError(
        `${at}.downloads`,
        `expected true or false, got ${describeOptionValue(downloads)}`,
      );
    }
    if (table.has(username)) {
      throw new HdOptionError(`${at}.username`, `${describeOptionValue(username)} is given twice`);
    }
    table.set(username, Object.freeze({ username, secret, downloads: downloads === true }));
  });
  return table;
}

/**
 * Reads a users file (a JSON array of `{ "username", "secret", "downloads": true|false }`) and
 * validates it like `resolveUsers`. Throws `HdOptionError` naming `usersFile` when the file cannot
 * be read or is not JSON.
 */
export async function loadUsersFile(file: string): Promise<UserTable> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HdOptionError("usersFile", `cannot read ${describeOptionValue(file)}: ${reason}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HdOptionError("usersFile", `${describeOptionValue(file)} is not valid JSON`);
  }
  return resolveUsers(parsed, "usersFile");
}
