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

/** The number `count` ASCII digits at `at` write, or NaN when a character there is not one (a garbled time reads as none). */
export function readDigits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return Number.NaN;
    n = n * 10 + digit;
  }
  return n;
}

/** The last day part parsed (`10/Oct/2000`) and its zone (`-0700`), kept: a log's lines share them. */
let lastDay = "";
let lastDayMs = Number.NaN;

/**
 * Milliseconds since the epoch of a Common Log Format time, `10/Oct/2000:13:55:36 -0700`, or NaN
 * when it is not one. Lines of a log mostly share their day, so the day is parsed once.
 */
export function parseClfTime(text: string): number {
  if (
    text.length !== 26 ||
    text.charCodeAt(11) !== 58 ||
    text.charCodeAt(14) !== 58 ||
    text.charCodeAt(17) !== 58 ||
    text.charCodeAt(20) !== 32
  ) {
    return Number.NaN;
  }
  const day = text.slice(0, 11) + text.slice(20);
  if (day !== lastDay) {
    const month =
      text.charCodeAt(2) === 47 && text.charCodeAt(6) === 47 ? MONTHS[text.slice(3, 6)] : undefined;
    const sign = zoneSign(text.charCodeAt(21));
    const zoneMinutes = readDigits(text, 22, 2) * 60 + readDigits(text, 24, 2);
    const ms =
      month === undefined
        ? Number.NaN
        : dayMs(readDigits(text, 7, 4), month, readDigits(text, 0, 2)) - sign * zoneMinutes * 60_000;
    lastDay = day;
    lastDayMs = ms;
  }
  return (
    lastDayMs + clockSeconds(readDigits(text, 12, 2), readDigits(text, 15, 2), readDigits(text, 18, 2)) * 1000
  );
}

/** The start of a day of a month (0 for January), in ms since the epoch; NaN for a day the month cannot have. */
export function dayMs(year: number, month: number, day: number): number {
  const ms = Date.UTC(year, month, day);
  // Date.UTC rolls 31 April over into 1 May: a day it moved did not exist.
  return day >= 1 && new Date(ms).getUTCDate() === day ? ms : Number.NaN;
}

/** Seconds since midnight of a clock time, or NaN when it is out of range (a leap second's `:60` is in). */
export function clockSeconds(hours: number, minutes: number, seconds: number): number {
  return hours < 24 && minutes < 60 && seconds <= 60 ? hours * 3600 + minutes * 60 + seconds : Number.NaN;
}

/** -1 for a zone's `-`, 1 for its `+`, NaN for anything else. */
export function zoneSign(code: number): number {
  return code === 45 ? -1 : code === 43 ? 1 : Number.NaN;
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
