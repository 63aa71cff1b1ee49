// The visitor's language, from the request's own Accept-Language header.

/** Longest language tag kept (RFC 5646 tags in practice stay well below this). */
const MAX_TAG_LENGTH = 35;

const isLetter = (code: number): boolean => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/**
 * A language tag as `Accept-Language` carries it (`en`, `en-GB`, `zh-Hant-TW`), of a sane length:
 * 1–8 letters, then subtags of 1–8 letters or digits after a `-`. Read character by character
 * rather than by a regular expression: it runs on every request, memo hits included.
 */
function isLanguageTag(tag: string): boolean {
  const length = tag.length;
  if (length === 0 || length > MAX_TAG_LENGTH) return false;
  let run = 0;
  let first = true;
  for (let i = 0; i < length; i++) {
    const code = tag.charCodeAt(i);
    if (code === 0x2d) {
      if (run === 0) return false;
      run = 0;
      first = false;
    } else if (isLetter(code) || (!first && isDigit(code))) {
      if (++run > 8) return false;
    } else return false;
  }
  return run > 0;
}

/**
 * The language range the visitor prefers most: the first of the highest quality in
 * `Accept-Language`, as sent (`en-GB` for `en-GB,en;q=0.9`); `""` when the header is absent,
 * empty, only `*`, or malformed. This fills `general_language` per request, so one memoised device
 * serves visitors of every language.
 */
export function preferredLanguage(header: string | undefined): string {
  if (header === undefined || header === "") return "";
  // Browsers send their first choice first, without a quality (which means the highest, 1): it
  // wins without parsing the rest, which keeps the full parse below off a memo hit
  // (bench:middleware's memo hit).
  const comma = header.indexOf(",");
  const first = (comma < 0 ? header : header.slice(0, comma)).trim();
  if (!first.includes(";") && first !== "*" && isLanguageTag(first)) return first;
  let best = "";
  let bestQuality = 0;
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.split(";");
    const tag = range.trim();
    if (tag === "*" || !isLanguageTag(tag)) continue;
    let quality = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(param);
      if (match !== null) quality = Number(match[1]);
    }
    if (quality > bestQuality) {
      best = tag;
      bestQuality = quality;
    }
  }
  return best;
}
