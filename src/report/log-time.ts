// Timestamps as access logs write them, to milliseconds since the epoch: CLF, ISO 8601 and epoch numbers.

const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

/** Month numbers by the three bytes of their name (`Oct` as 0x4f6374), for reading times from bytes. */
export const MONTH_INDEX: ReadonlyMap<number, number> = new Map(
  Object.entries(MONTHS).map(([name, month]) => [
    (name.charCodeAt(0) << 16) | (name.charCodeAt(1) << 8) | name.charCodeAt(2),
    month,
  ]),
);

const digit = (text: string, at: number): number => text.charCodeAt(at) - 48;
const two = (text: string, at: number): number => digit(text, at) * 10 + digit(text, at + 1);

/** The last day part parsed (`10/Oct/2000`) and its zone (`-0700`), kept: a log's lines share them. */
let lastDay = "";
let lastDayMs = Number.NaN;

/**
 * Milliseconds since the epoch of a Common Log Format time, `10/Oct/2000:13:55:36 -0700`, or NaN
 * when it is not one. Lines of a log mostly share their day, so the day is parsed once.
 */
export function parseClfTime(text: string): number {
  if (text.length !== 26 || text.charCodeAt(11) !== 58 || text.charCodeAt(20) !== 32) return Number.NaN;
  const day = text.slice(0, 11) + text.slice(20);
  if (day !== lastDay) {
    const month = MONTHS[text.slice(3, 6)];
    const sign = text.charCodeAt(21) === 45 ? -1 : 1;
    const zoneMinutes = two(text, 22) * 60 + two(text, 24);
    const ms =
      month === undefined
        ? Number.NaN
        : Date.UTC(digit(text, 7) * 1000 + digit(text, 8) * 100 + two(text, 9), month, two(text, 0)) -
          sign * zoneMinutes * 60_000;
    lastDay = day;
    lastDayMs = ms;
  }
  const seconds = two(text, 12) * 3600 + two(text, 15) * 60 + two(text, 18);
  return seconds >= 0 && seconds < 86_400 ? lastDayMs + seconds * 1000 : Number.NaN;
}

/** An ISO 8601 date and time (`2026-11-27T08:13:15.123Z`, `2026-11-27T09:13:15+01:00`), or NaN. */
export function parseIsoTime(text: string): number {
  if (text.length < 10 || text.charCodeAt(4) !== 45) return Number.NaN;
  return Date.parse(text);
}

/** The latest time a `Date` holds, in ms since the epoch (275760-09-13). */
export const MAX_TIME_MS = 8.64e15;

/**
 * Whether a parsed time can be counted: from 1970 on and no later than a `Date` holds. A time
 * outside is a broken clock's or a number in the wrong unit; its request counts as untimed, so
 * that every period starts at a time a `Date` can name.
 */
export function isCountableTime(ms: number): boolean {
  return ms >= 0 && ms <= MAX_TIME_MS;
}

/** Seconds (Caddy's `ts`, 1.7e9) or milliseconds (pino's `time`, 1.7e12) since the epoch, as milliseconds. */
export function epochToMs(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return Number.NaN;
  return value < 1e11 ? value * 1000 : value;
}

/** Milliseconds of a log's time value, whatever its form; NaN when it has none. */
export function parseAnyTime(value: unknown): number {
  if (typeof value === "number") return epochToMs(value);
  if (typeof value !== "string") return Number.NaN;
  if (value.length === 26 && value.charCodeAt(2) === 47) return parseClfTime(value);
  if (value.length === 28 && value.charCodeAt(0) === 91) return parseClfTime(value.slice(1, -1));
  if (/^\d+(\.\d+)?$/.test(value)) return epochToMs(Number(value));
  return parseIsoTime(value);
}
