// "Did you mean ...?" suggestions for misspelt option, flag and command names.

/** Levenshtein distance between two short strings, compared case-insensitively. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[y.length] ?? Number.POSITIVE_INFINITY;
}

/**
 * The known name closest to `name`: an explicit alias first (`timeout` → `timeoutMs`), then the
 * nearest name within an edit distance of 2 (or a case-insensitive prefix match).
 */
export function suggestName(
  name: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  const lower = name.toLowerCase();
  // Own keys only: `constructor` or `__proto__` must not read Object.prototype.
  if (Object.hasOwn(aliases, lower)) return aliases[lower];
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined) return best;
  return known.find((candidate) => candidate.toLowerCase().startsWith(lower) && lower.length >= 4);
}
