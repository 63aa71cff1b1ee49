// The visitor's language, from the request's own Accept-Language header.

/** Longest language tag kept (RFC 5646 tags in practice stay well below this). */
const MAX_TAG_LENGTH = 35;

/**
 * The language range the visitor prefers most: the first of the highest quality in
 * `Accept-Language`, as sent (`en-GB` for `en-GB,en;q=0.9`); `""` when the header is absent,
 * empty, only `*`, or malformed. This fills `general_language` per request, so one memoised device
 * serves visitors of every language.
 */
export function preferredLanguage(header: string | undefined): string {
  if (header === undefined || header === "") return "";
  let best = "";
  let bestQuality = 0;
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.split(";");
    const tag = range.trim();
    if (tag === "*" || tag.length > MAX_TAG_LENGTH || !/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
      continue;
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
