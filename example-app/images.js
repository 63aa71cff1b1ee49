// @ts-check
// The adaptive hero image: the widths on offer, and an SVG drawn at the chosen width (no binary assets needed).

/** Widths of the hero image, in pixels; `pickAsset()` chooses one per device. */
export const HERO_WIDTHS = /** @type {const} */ ([320, 640, 960, 1280, 1920]);

/**
 * The hero width for a display nothing tells us about (a desktop's user-agent says nothing of its
 * screen, and the page script reports it from the second page on): a laptop's, not a 4K monitor's.
 * Passed to `pickAsset()` as `defaultWidth`, as the docs advise.
 */
export const DEFAULT_HERO_WIDTH = 1280;

/**
 * Height of the hero image for a width (16:9), in pixels.
 * @param {number} width
 * @returns {number}
 */
export function heroHeight(width) {
  return Math.round((width * 9) / 16);
}

/**
 * The hero image as SVG, `width` pixels wide. The drawing is the same at every size; the label
 * says which size was served, so the choice is visible.
 * @param {number} width  One of {@link HERO_WIDTHS}.
 * @returns {string}
 */
export function heroSvg(width) {
  const height = heroHeight(width);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1600 900" role="img" aria-label="Hero image, ${width} by ${height} pixels">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1e3a8a"/>
      <stop offset="1" stop-color="#7dd3fc"/>
    </linearGradient>
  </defs>
  <rect width="1600" height="900" fill="url(#sky)"/>
  <circle cx="1360" cy="170" r="90" fill="#fde68a"/>
  <path d="M0 640 C 300 520 520 560 800 640 S 1300 520 1600 600 V 900 H 0 Z" fill="#15803d"/>
  <path d="M0 740 C 360 660 700 700 1000 760 S 1400 700 1600 720 V 900 H 0 Z" fill="#166534"/>
  <g font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" text-anchor="middle" fill="#ffffff">
    <text x="800" y="400" font-size="150" font-weight="700">${width} × ${height}</text>
    <text x="800" y="500" font-size="56" opacity="0.9">the size picked for this device</text>
  </g>
</svg>
`;
}
