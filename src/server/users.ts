// The accounts of a self-hosted API v3 server: validation of the list and of a users file.

import { readFile } from "node:fs/promises";
import { describeOptionValue, errorMessage } from "../errors.js";
import {
  booleanOption,
  invalidOption,
  type KnownOptions,
  missingOption,
  optionsObject,
  stringOption,
} from "../options.js";

/** One account of a self-hosted API v3 server. */
export interface ApiUser {
  /** API username (the Digest user name). */
  username: string;
  /** API secret (the Digest password). */
  secret: string;
  /** May download specs and trees (an "Ultimate" licence). Default `false`: those calls answer 229. */
  downloads?: boolean;
}

const USER_KEYS: KnownOptions<ApiUser> = {
  username: true,
  secret: true,
  downloads: true,
};

/** A validated, frozen account table keyed by username. */
export type UserTable = ReadonlyMap<string, Readonly<Required<ApiUser>>>;

const ACCOUNT = "{ username, secret, downloads? }";

/**
 * Validates a list of accounts and indexes it by username. Throws `HdOptionError` naming
 * `option[i].field` for a missing or empty username or secret, a non-boolean `downloads`, an
 * unknown key, or a username given twice. Secrets never appear in messages.
 */
export function resolveUsers(value: unknown, option = "users"): UserTable {
  if (!Array.isArray(value) || value.length === 0) {
    // A list is shown (it is empty); anything else by its type only, as it may hold a secret.
    invalidOption(
      option,
      `expected a non-empty array of ${ACCOUNT}.`,
      Array.isArray(value) ? value : typeof value,
    );
  }
  const table = new Map<string, Readonly<Required<ApiUser>>>();
  value.forEach((entry: unknown, index) => {
    const at = `${option}[${index}]`;
    const record = optionsObject<ApiUser>(entry, {
      factory: "an account",
      known: USER_KEYS,
      usage: ACCOUNT,
      aliases: { user: "username", password: "secret", apisecret: "secret", download: "downloads" },
      at,
    });
    const username =
      stringOption(`${at}.username`, record.username) ??
      missingOption(`${at}.username`, "a non-empty string");
    const secret =
      stringOption(`${at}.secret`, record.secret, undefined, true) ??
      missingOption(`${at}.secret`, "a non-empty string");
    const downloads = booleanOption(`${at}.downloads`, record.downloads, false);
    if (table.has(username)) {
      invalidOption(`${at}.username`, "expected each username once.", username);
    }
    table.set(username, Object.freeze({ username, secret, downloads }));
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
    invalidOption("usersFile", `cannot read ${describeOptionValue(file)}: ${errorMessage(error)}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    invalidOption("usersFile", `${describeOptionValue(file)} is not valid JSON.`);
  }
  return resolveUsers(parsed, "usersFile");
}
