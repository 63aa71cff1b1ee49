// The command table of `hd3`: one entry per command, each loaded from its own file on demand.

import type { CommandContext } from "../context.js";
import { CLOUD_FLAGS, type FlagTable, HELP_FLAGS, OUTPUT_FLAGS, SOURCE_FLAGS } from "../flags.js";

/** What a command file exports. */
interface CommandModule {
  /** Runs the command; resolves with the exit code. Failures throw and the CLI maps them. */
  run(context: CommandContext): Promise<number>;
}

/** One command of the table. */
export interface CommandSpec {
  /** One line for `hd3 --help`. */
  readonly summary: string;
  /** Arguments as shown in help, e.g. `<vendor> <model>`. */
  readonly args: string;
  /** How many positional arguments the command takes. */
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Flags the command accepts (help flags included). */
  readonly flags: FlagTable;
  /** Extra paragraphs for `hd3 <command> --help`. */
  readonly details?: readonly string[];
  /** Example command lines. */
  readonly examples: readonly string[];
  /** Loads the command's file (lazily, so `hd3 --help` loads no client, engine or store). */
  readonly load: () => Promise<CommandModule>;
}

const QUERY_FLAGS = { ...SOURCE_FLAGS, ...CLOUD_FLAGS, ...OUTPUT_FLAGS, ...HELP_FLAGS } as const;

/** Every command, by name. A new command adds one entry here and one file in this folder. */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  sync: {
    summary: "Download the device database (specs + trees) into the data directory.",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    flags: {
      "data-dir": SOURCE_FLAGS["data-dir"],
      ...CLOUD_FLAGS,
      archive: {
        type: "boolean",
        description:
          "Download one fetcharchive ZIP instead of fetchspecs + fetchtrees (for services that offer it, such as hd3 serve).",
      },
      quiet: { type: "boolean", short: "q", description: "No progress bar; print the summary only." },
      json: { type: "boolean", description: "Print the summary as JSON." },
      ...HELP_FLAGS,
    },
    details: [
      "Needs credentials and a licence that allows downloads (Ultimate Detection); otherwise the",
      "service answers status 229 and hd3 exits with code 3. The files already in the data directory",
      "stay as they were unless both new files downloaded and validated. --archive writes both files",
      "from one archive download, with the same checks.",
    ],
    examples: [
      "HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... hd3 sync",
      "hd3 sync --data-dir ./hd-data",
      "HD_BASE_URL=http://127.0.0.1:8080 hd3 sync --archive --data-dir ./hd-data",
    ],
    load: () => import("./sync.js"),
  },
  detect: {
    summary: "Detect the device of a user-agent (plus any other headers).",
    args: "[<user-agent>]",
    minArgs: 0,
    maxArgs: 1,
    flags: {
      header: {
        type: "string",
        short: "H",
        multiple: true,
        placeholder: "<name:value>",
        description:
          'Another request header, e.g. x-wap-profile:http://..., sec-ch-ua-model:"SM-S928B" or cookie:hd_screen=t5w393h852r3 (repeatable).',
      },
      bare: {
        type: "boolean",
        description:
          "The database's bare answer: no client hints, page-script cookie or rules above the database.",
      },
      ...QUERY_FLAGS,
    },
    details: [
      "Answers what the middleware would: client hints (-H sec-ch-ua-*) complete a frozen user-agent,",
      "the page script's cookie (-H cookie:hd_screen=...) tells an iPad from a Mac. --bare skips both.",
      "Exit code 5 when no device matches (status 301 Nothing Found).",
    ],
    examples: [
      'hd3 detect "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"',
      'hd3 detect --json "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) ..."',
      'hd3 detect -H "user-agent:Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 ...)" -H "x-operamini-phone-ua:Nokia..."',
      'hd3 detect "Mozilla/5.0 (Linux; Android 10; K) ... Chrome/131.0.0.0 Mobile Safari/537.36" -H \'sec-ch-ua-platform:"Android"\' -H \'sec-ch-ua-model:"SM-S928B"\'',
    ],
    load: () => import("./detect.js"),
  },
  vendors: {
    summary: "List every vendor.",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    flags: QUERY_FLAGS,
    examples: ["hd3 vendors"],
    load: () => import("./vendors.js"),
  },
  models: {
    summary: "List the models of a vendor.",
    args: "<vendor>",
    minArgs: 1,
    maxArgs: 1,
    flags: QUERY_FLAGS,
    details: ["Exit code 5 when the vendor has no models, with the nearest vendor name."],
    examples: ["hd3 models Samsung"],
    load: () => import("./models.js"),
  },
  view: {
    summary: "Show the record of one device.",
    args: "<vendor> <model>",
    minArgs: 2,
    maxArgs: 2,
    flags: QUERY_FLAGS,
    details: ["Exit code 5 when there is no such vendor/model (status 301), with the nearest name."],
    examples: ['hd3 view Google "Pixel 8"', "hd3 view --json Apple iPhone"],
    load: () => import("./view.js"),
  },
  whathas: {
    summary: "List the devices whose property contains a value.",
    args: "<property> <value>",
    minArgs: 2,
    maxArgs: 2,
    flags: QUERY_FLAGS,
    details: [
      "Exit code 5 when no device has the value, or the property is no device field (with the nearest one).",
    ],
    examples: ["hd3 whathas general_type Console", "hd3 whathas network 5G"],
    load: () => import("./whathas.js"),
  },
  report: {
    summary: "Report the device mix of a site from its access logs (HTML, JSON, CSV).",
    args: "<file|-> [<file>...]",
    minArgs: 1,
    maxArgs: Number.POSITIVE_INFINITY,
    flags: {
      html: {
        type: "string",
        placeholder: "<file>",
        description: "Write the report as one self-contained HTML page.",
      },
      json: {
        type: "string",
        placeholder: "<file|->",
        description:
          "Write the report as JSON (the versioned shape of docs/report.md); - prints it on stdout.",
      },
      csv: {
        type: "string",
        placeholder: "<dir>",
        description: "Write one CSV file per table into this folder.",
      },
      format: {
        type: "string",
        placeholder: "combined|common|json",
        description: "The logs' format. Default: told from each input's first lines.",
      },
      "user-agent-field": {
        type: "string",
        placeholder: "<name>",
        description:
          "Field of JSON lines holding the user-agent, a dotted path (req.headers.user-agent). Default: the usual ones.",
      },
      since: {
        type: "string",
        placeholder: "<time>",
        description: "Count requests from this time on (2026-11-01 or 2026-11-01T08:00:00Z).",
      },
      until: { type: "string", placeholder: "<time>", description: "Count requests before this time." },
      path: {
        type: "string",
        placeholder: "<prefix>",
        description: "Count only requests whose path starts with this.",
      },
      "exclude-bots": { type: "boolean", description: "Leave crawlers' requests out of every section." },
      workers: {
        type: "string",
        placeholder: "<n>",
        description: "Worker threads that count lines. Default: one per core.",
      },
      "data-dir": {
        type: "string",
        placeholder: "<dir>",
        env: "HD_DATA_DIR",
        description:
          "Synced data to detect with (hd3 sync --data-dir <dir>). Default: the data directory, else the SAMPLE database.",
      },
      quiet: { type: "boolean", short: "q", description: "No progress and no notes on stderr." },
      ...HELP_FLAGS,
    },
    details: [
      "Reads nginx/Apache combined or common logs, or JSON lines (nginx escape=json, Caddy, pino-http,",
      "morgan-style); .gz files and gzip on stdin are unpacked. Lines that do not parse are counted and",
      "sampled. Prints a summary on stdout; a progress line on stderr when it is a terminal. Ctrl-C stops",
      "reading and reports what was counted so far (exit code 130).",
    ],
    examples: [
      "hd3 report /var/log/nginx/access.log --html report.html",
      "hd3 report access.log.1.gz access.log --data-dir ./hd-data --html report.html --json report.json --csv report-csv",
      "zcat access.log.*.gz | hd3 report - --exclude-bots --since 2026-11-01 --json -",
      "hd3 report app.log --format json --user-agent-field req.headers.user-agent --path /shop/",
    ],
    load: () => import("./report.js"),
  },
  serve: {
    summary: "Serve the API v3 from local data: a self-hosted server for any v3 client.",
    args: "",
    minArgs: 0,
    maxArgs: 0,
    flags: {
      "users-file": {
        type: "string",
        placeholder: "<file>",
        env: "HD_USERS_FILE",
        description:
          'Required. JSON array of { "username", "secret", "downloads": true|false }: the accounts allowed in.',
      },
      "data-dir": {
        type: "string",
        placeholder: "<dir>",
        env: "HD_DATA_DIR",
        description: "Synced data to serve (hd3 sync --data-dir <dir>). Default: the SAMPLE database.",
      },
      port: {
        type: "string",
        placeholder: "<port>",
        description: "TCP port. Default 8080; 0 picks a free port (the URL printed says which).",
      },
      host: {
        type: "string",
        placeholder: "<address>",
        description:
          "Address to listen on. Default 127.0.0.1 (this machine only); 0.0.0.0 for every interface.",
      },
      "headers-timeout-ms": {
        type: "string",
        placeholder: "<ms>",
        description: "Time a client has to send its request headers. Default 10000.",
      },
      "request-timeout-ms": {
        type: "string",
        placeholder: "<ms>",
        description:
          "Time a client has to send its whole request; then 408 and the connection closes. Default 20000.",
      },
      "keep-alive-timeout-ms": {
        type: "string",
        placeholder: "<ms>",
        description: "Time an idle keep-alive connection stays open after a reply. Default 5000.",
      },
      "max-body-bytes": {
        type: "string",
        placeholder: "<bytes>",
        description: "Largest request body; a larger one gets 413 and the connection closes. Default 102400.",
      },
      "send-timeout-ms": {
        type: "string",
        placeholder: "<ms>",
        description:
          "Time a download may go without the client taking any bytes; then it is cut and its file closed. Default 30000.",
      },
      "max-downloads-per-user": {
        type: "string",
        placeholder: "<n>",
        description: "Downloads one account may have in progress at once; one more gets 429. Default 8.",
      },
      "sync-every": {
        type: "string",
        placeholder: "<duration>",
        description:
          "Sync --data-dir on this schedule (90s, 30m, 6h, 1d; plus a tenth of jitter), from the vendor or from another hd3 serve (--base-url), with the credentials below.",
      },
      metrics: {
        type: "boolean",
        description:
          "Also answer GET /metrics (no authentication) with Prometheus series: hd_api_*, the data served, and Node's process metrics. Needs prom-client installed.",
      },
      ...CLOUD_FLAGS,
      quiet: { type: "boolean", short: "q", description: "No notes on stderr (warnings still show)." },
      ...HELP_FLAGS,
    },
    details: [
      "Answers detect, vendors, models, view, whathas, fetchspecs, fetchtrees and fetcharchive in the",
      "API v3 wire format behind Digest authentication (realm, nonce and opaque APIv3). Accounts without",
      '"downloads": true get status 229 on the downloads. Prints the base URL on stdout.',
      "Request lines with raw spaces (as the vendor's kits send model names) are accepted. A refused",
      "request (400, 401, 404, 405, 408, 413) is answered with Connection: close, its body unread.",
      "--data-dir is followed: a pair `hd3 sync` renamed into place is served within a second, one",
      "that does not load is refused with a warning. --sync-every syncs it from --base-url itself",
      "(first thing when it is empty or older than the interval); a failed sync keeps the data in use.",
      "SIGINT or SIGTERM stops it (requests in flight get 5 s); SIGHUP reloads --data-dir at once.",
      "Plain HTTP: put it behind a TLS proxy or keep it on a private network.",
    ],
    examples: [
      "hd3 serve --users-file users.json",
      "hd3 serve --users-file users.json --data-dir ./hd-data --port 8080 --host 0.0.0.0",
      "hd3 serve --users-file users.json --headers-timeout-ms 5000 --request-timeout-ms 10000",
      "hd3 serve --users-file users.json --metrics   # Prometheus scrapes http://127.0.0.1:8080/metrics",
      "HD_USERNAME=... HD_SECRET=... HD_SITE_ID=... hd3 serve --users-file users.json --data-dir ./hd-data --sync-every 1d",
      "HD_USERNAME=alice HD_SECRET=... HD_SITE_ID=1 hd3 serve --users-file users.json --data-dir ./hd-data --sync-every 1h --base-url http://mirror:8080",
      'HD_USERNAME=alice HD_SECRET=s3cret HD_SITE_ID=1 HD_BASE_URL=http://127.0.0.1:8080 hd3 detect "Mozilla/5.0 ..."',
    ],
    load: () => import("./serve.js"),
  },
};
