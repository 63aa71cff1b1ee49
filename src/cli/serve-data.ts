// `hd3 serve --data-dir` keeps its data fresh: it follows the directory, and with --sync-every syncs it itself.

import { stat } from "node:fs/promises";
import type { LocalEngine } from "../engine/local-engine.js";
import { errorMessage } from "../errors.js";
import { MAX_TIMER_MS } from "../options.js";
import { DataFollower } from "../store/data-follower.js";
import type { DataStore } from "../store/data-store.js";
import { DataRefresher, type RefreshableStore } from "../store/refresher.js";
import { type CommandContext, flag, note } from "./context.js";
import { stderrLogger } from "./data-source.js";
import { UsageError } from "./exit-codes.js";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** The shortest schedule `--sync-every` takes: one second, as `DataRefresher`'s `intervalMs`. */
const MIN_SYNC_EVERY_MS = 1_000;
/** The longest: the interval plus its tenth of jitter must fit a Node timer (about 22 days). */
const MAX_SYNC_EVERY_MS = Math.floor(MAX_TIMER_MS / 1.1);

/**
 * `--sync-every` in milliseconds (`90s`, `30m`, `6h`, `1d`), or `undefined` when not given.
 *
 * @throws {UsageError} for a value without a unit, or outside one second to 22 days.
 */
export function syncEvery(context: CommandContext): number | undefined {
  const text = flag(context, "sync-every");
  if (text === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  const ms =
    match === null ? Number.NaN : Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  if (!(ms >= MIN_SYNC_EVERY_MS && ms <= MAX_SYNC_EVERY_MS)) {
    throw new UsageError(
      `--sync-every takes a duration from 1s to 22d with its unit (90s, 30m, 6h, 1d), got ${JSON.stringify(text)}`,
      context.command,
    );
  }
  return ms;
}

/** What keeps a served directory fresh; `close()` stops it. */
export interface FreshData {
  /** Reloads the files now (SIGHUP); a pair that does not load keeps the data in use. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

function describe(engine: LocalEngine): string {
  const info = engine.dataInfo;
  const generated = info.treesGenerated ?? info.specsGenerated;
  return `${info.devices} devices${generated === undefined ? "" : `, generated ${generated}`}`;
}

/**
 * Keeps the engine of `store` (the one being served) on the newest good pair in its directory:
 * the directory is followed (a watch, a 30 s stat poll), and a pair another process switched to
 * (`hd3 sync` from cron, say) is loaded and swapped in while serving; one that does not load is
 * refused with a warning, and the pair in use stays (and is what downloads serve). With
 * `intervalMs` (`--sync-every`), a {@link DataRefresher} also syncs the store from its source on
 * that schedule, plus jitter: at start too when the last sync is older than the interval. Its
 * failures keep the data in use and are retried sooner.
 */
export function keepFresh(
  context: CommandContext,
  store: DataStore,
  engine: LocalEngine,
  intervalMs: number | undefined,
): FreshData {
  const warn = (text: string) => context.io.stderr.write(`hd3: warning: ${text}\n`);
  const reload = async (): Promise<void> => {
    try {
      engine.replaceData(await store.loadCurrentData());
      note(context, `reloaded ${store.dir} (${describe(engine)})`);
    } catch (error) {
      warn(`the data in ${store.dir} does not load, still serving the previous data: ${errorMessage(error)}`);
    }
  };
  const follower = new DataFollower({
    files: [store.specsFile, store.treesFile],
    pointerFile: store.pointerFile,
    onChange: reload,
  });
  if (intervalMs === undefined) {
    return {
      reload,
      close: async () => follower.close(),
    };
  }

  // The refresher's own syncs are not changes to follow: it swaps the data in itself.
  const syncing: RefreshableStore = {
    get engine() {
      return store.engine;
    },
    hasCachedData: () => store.hasCachedData(),
    load: () => store.load(),
    sync: async (options) => {
      follower.pause();
      try {
        return await store.sync(options);
      } finally {
        await follower.resume();
      }
    },
  };
  // The pointer's time is the last sync's; a directory without one has only its files' times.
  const started = stat(store.pointerFile)
    .catch(() => stat(store.specsFile))
    .then(
      (info) => Date.now() - info.mtimeMs >= intervalMs,
      () => true,
    );
  let refresher: DataRefresher | undefined;
  const starting = started.then((stale) => {
    refresher = new DataRefresher({
      store: syncing,
      intervalMs,
      syncOnStart: stale,
      logger: stderrLogger(context),
      onRefresh: (_result, status) =>
        note(
          context,
          `synced ${store.dir} (${describe(engine)}); next sync ${status.nextRunAt ?? "not scheduled"}`,
        ),
      onError: (_error, status) =>
        warn(
          `sync failed, still serving the previous data: ${status.lastError?.message ?? "unknown error"}; next try ${status.nextRunAt ?? "not scheduled"}`,
        ),
    });
    return refresher.start();
  });
  return {
    reload,
    async close() {
      follower.close();
      await starting.catch(() => undefined);
      await refresher?.close();
    },
  };
}
