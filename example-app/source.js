// @ts-check
// Picks where the example app's answers come from: the cloud API, synced local data, or the sample database.

import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { LocalEngine } from "express-handset-detection";
import { hasCachedData } from "express-handset-detection/data";

/** @typedef {import("express-handset-detection").HandsetDetectionOptions} HandsetDetectionOptions */

/**
 * Where detections come from.
 * @typedef {object} DetectionSource
 * @property {"cloud" | "local" | "sample"} kind  Which detector answers.
 * @property {string} description  One line for the console and the page footer.
 * @property {HandsetDetectionOptions} options  What to give `handsetDetection()`.
 * @property {number} [devices]  How many devices the data holds, when it is known (the sample's).
 */

/** The variables that hold cloud credentials, all three or none. */
const CREDENTIAL_VARIABLES = /** @type {const} */ (["HD_USERNAME", "HD_SECRET", "HD_SITE_ID"]);

/**
 * The cache directory `hd3 sync` writes: `HD_DATA_DIR`, else `$XDG_CACHE_HOME/handset-detection`,
 * else `~/.cache/handset-detection` (the same default as the `hd3` command).
 * @param {Readonly<Record<string, string | undefined>>} env
 * @returns {string}
 */
export function dataDirFrom(env) {
  if (env.HD_DATA_DIR) return resolve(env.HD_DATA_DIR);
  const base =
    env.XDG_CACHE_HOME ||
    (process.platform === "win32" && env.LOCALAPPDATA ? env.LOCALAPPDATA : join(homedir(), ".cache"));
  return join(base, "handset-detection");
}

/**
 * The sample database shipped in the package (`data/sample/`), found the way any app would find
 * it: through the installed package's own `package.json`.
 * @returns {{ specsPath: string, treesPath: string }}
 */
export function sampleDataFiles() {
  const root = dirname(createRequire(import.meta.url).resolve("express-handset-detection/package.json"));
  return {
    specsPath: join(root, "data", "sample", "sample-specs.json"),
    treesPath: join(root, "data", "sample", "sample-trees.json"),
  };
}

/**
 * Chooses the detection source from environment variables:
 * 1. cloud, when `HD_USERNAME`, `HD_SECRET` and `HD_SITE_ID` are all set (`HD_BASE_URL` optional);
 * 2. local, when the data directory holds `hd3specs.json` + `hd3trees.json` (from `hd3 sync`);
 * 3. sample: the small sample database, so the app works with no account at all.
 *
 * Throws when only some of the credentials are set, naming the missing ones, and when
 * `HD_DATA_DIR` names a directory without synced data (never a silent fall back to the sample).
 * @param {Readonly<Record<string, string | undefined>>} [env]
 * @returns {Promise<DetectionSource>}
 */
export async function chooseSource(env = process.env) {
  const set = CREDENTIAL_VARIABLES.filter((name) => env[name]);
  if (set.length === CREDENTIAL_VARIABLES.length) {
    const baseUrl = env.HD_BASE_URL || undefined;
    return {
      kind: "cloud",
      description: `cloud API at ${baseUrl ?? "https://api.handsetdetection.com"} (site ${env.HD_SITE_ID})`,
      options: {
        username: /** @type {string} */ (env.HD_USERNAME),
        secret: /** @type {string} */ (env.HD_SECRET),
        siteId: /** @type {string} */ (env.HD_SITE_ID),
        ...(baseUrl === undefined ? {} : { baseUrl }),
        mode: "cloud",
      },
    };
  }
  if (set.length > 0) {
    const missing = CREDENTIAL_VARIABLES.filter((name) => !env[name]);
    throw new Error(
      `Incomplete credentials: ${set.join(", ")} set but ${missing.join(", ")} missing. Set all three for the cloud, or none.`,
    );
  }
  const dir = dataDirFrom(env);
  if (await hasCachedData(dir)) {
    return { kind: "local", description: `local data synced in ${dir}`, options: { cacheDir: dir } };
  }
  if (env.HD_DATA_DIR) {
    // A directory the user named must hold data: falling back to the sample would hide the mistake.
    throw new Error(
      `HD_DATA_DIR=${env.HD_DATA_DIR} holds no synced data (hd3specs.json and hd3trees.json in ${dir}): run \`npx express-handset-detection sync --data-dir ${env.HD_DATA_DIR}\`, or unset HD_DATA_DIR to use the sample database.`,
    );
  }
  const { specsPath, treesPath } = sampleDataFiles();
  const engine = await LocalEngine.fromFiles(specsPath, treesPath);
  return {
    kind: "sample",
    description: `SAMPLE database (${engine.dataInfo.devices} devices) in ${dirname(specsPath)}`,
    devices: engine.dataInfo.devices,
    options: { engine },
  };
}
