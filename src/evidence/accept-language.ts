// The visitor's language, from the request's own Accept-Language header.

/** Longest language tag kept (RFC 5646 tags in practice stay well below this). */
const MAX_TAG_LENGTH = 35;

/** A language tag as `Accept-Language` carries it (`en`, `en-GB`, `zh-Hant-TW`), of a sane length. */
function isLanguageTag(tag: string): boolean {
  return tag.length <= MAX_TAG_LENGTH && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag);
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
  // wins without parsing the rest. This keeps a memo hit near 1 µs (bench:middleware, called
  // directly: the full parse below costs about 0.5 µs for `en-GB,en;q=0.9`).
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
