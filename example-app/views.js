// @ts-check
// The example app's pages, as plain functions returning HTML (every value from a detection is escaped).

import { deviceScriptTag } from "express-handset-detection";
import { DEFAULT_HERO_WIDTH, HERO_WIDTHS, heroHeight } from "./images.js";

/** @typedef {import("express-handset-detection").Device} Device */
/** @typedef {import("./source.js").DetectionSource} DetectionSource */

/**
 * Escapes text for HTML content and attribute values.
 * @param {unknown} value
 * @returns {string}
 */
function escapeHtml(value) {
  return String(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * Joins non-empty parts with a space, or gives `fallback` when all are empty.
 * @param {readonly string[]} parts
 * @param {string} [fallback]
 */
function words(parts, fallback = "unknown") {
  const text = parts.filter((p) => p !== "").join(" ");
  return text === "" ? fallback : text;
}

/**
 * The device's name for headings: vendor and model, or a plain "Unknown device".
 * @param {Device} device
 */
function deviceName(device) {
  return words([device.specs.general_vendor, device.specs.general_model], "Unknown device");
}

/**
 * Screen size as `display_x × display_y` pixels, or "unknown".
 * @param {Device} device
 */
function screen(device) {
  const { display_x: x, display_y: y } = device.specs;
  return x && y ? `${x} × ${y} px` : "unknown";
}

/** @type {Record<Device["source"], string>} */
const ANSWERED_BY = {
  local: "local engine",
  cloud: "cloud API",
  memo: "memo (a remembered detection)",
  skipped: "nobody (detection skipped)",
};

/**
 * What the detection ran on, in words: the user-agent alone, the client hints (a model or a
 * platform version the user-agent hides), or the page script (a touch screen behind a Mac user-agent).
 * @param {Device} device
 * @param {string} userAgent
 */
function decidedBy(device, userAgent) {
  if (device.decidedBy === "page-script") return "page script: a touch screen behind a Mac user-agent";
  if (device.decidedBy === "client-hints") {
    return /Android 10; K\)/.test(userAgent)
      ? "model from client hints"
      : "platform version from client hints";
  }
  return "user-agent";
}

/**
 * A display width and whose it is: `model` for the typical display of the detected model (from its
 * record, the same for every visitor with it), `visitor` for the screen the page script measured.
 * @typedef {object} Display
 * @property {number} width  In device pixels.
 * @property {"model" | "visitor"} whose
 */

/**
 * The screen the page script measured, or a hint that it comes from the second page on.
 * @param {Device} device
 */
function measuredScreen(device) {
  const s = device.screen;
  return s === undefined
    ? "not yet (the page script reports it from the next page on)"
    : `${s.width} × ${s.height} CSS px at ${s.pixelRatio}x, ${s.maxTouchPoints} touch points`;
}

/** @type {Record<DetectionSource["kind"], string>} */
const SOURCE_LABEL = {
  cloud: "Handset Detection cloud API",
  local: "synced local database",
  sample: "sample database",
};

/**
 * @typedef {object} LayoutOptions
 * @property {string} title
 * @property {"home" | "shop"} [active]
 * @property {DetectionSource} source
 * @property {string} body
 */

/**
 * The page frame: header, navigation, sample-data notice, footer.
 * @param {LayoutOptions} options
 * @returns {string}
 */
function layout({ title, active, source, body }) {
  /** @param {string} href @param {string} label @param {boolean} current */
  const link = (href, label, current) =>
    `<a href="${href}"${current ? ' aria-current="page"' : ""}>${label}</a>`;
  const notice =
    source.kind === "sample"
      ? `<p class="notice" role="note"><strong>Sample data.</strong> Detections use the small sample database shipped with the package (${source.devices} devices). For real data, run <code>hd3 sync</code> or set the <code>HD_USERNAME</code>, <code>HD_SECRET</code> and <code>HD_SITE_ID</code> credentials.</p>`
      : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · express-handset-detection</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
${deviceScriptTag()}
</head>
<body>
<header class="top">
  <a class="brand" href="/">express&#8209;handset&#8209;detection <span>example</span></a>
  <nav>
    ${link("/", "Your device", active === "home")}
    ${link("/shop", "Shop", active === "shop")}
    ${link("/api/device", "JSON", false)}
  </nav>
</header>
${notice}
${body}
<footer>
  Detections from the <strong>${SOURCE_LABEL[source.kind]}</strong>.
  <a href="https://www.npmjs.com/package/express-handset-detection">express-handset-detection</a> ·
  <a href="https://www.handsetdetection.com/">Handset Detection</a> API v3
</footer>
</body>
</html>
`;
}

/**
 * Why a Chromium browser that reached the app over plain http from another host is not named, and
 * how to fix it.
 * @param {string} host  The host and port it reached, as in its Host header.
 * @returns {string}
 */
function insecureOriginNotice(host) {
  const port = /:(\d+)$/.exec(host)?.[1] ?? "80";
  const h = escapeHtml(host);
  return `<p class="notice" role="note" data-notice="insecure-origin"><strong>Why is your phone not named?</strong> Your browser fetched this page over plain http from <code>${h}</code>. Chrome, Edge and Samsung Internet send client hints (the model and platform version their reduced user-agent hides) to secure origins only: https, or http://localhost. So this request carried none, and an Android phone shows as a generic one. To see it named: serve the app over HTTPS (a TLS proxy or tunnel in front of it); or connect the phone by USB, run <code>adb reverse tcp:${escapeHtml(port)} tcp:${escapeHtml(port)}</code> and open <code>http://localhost:${escapeHtml(port)}</code> on it; or, for a test only, add <code>http://${h}</code> to <code>chrome://flags/#unsafely-treat-insecure-origin-as-secure</code> on the phone.</p>`;
}

/**
 * The home page: what was detected, and an image sized to the display.
 * @param {object} data
 * @param {Device} data.device
 * @param {DetectionSource} data.source
 * @param {string} data.userAgent
 * @param {number} data.heroWidth  The hero width `pickAsset()` chose.
 * @param {Display | undefined} data.display  The display width it chose for, when known.
 * @param {string} [data.hintsBlockedHost]  The host a Chromium browser reached over plain http (no client hints), if so.
 * @returns {string}
 */
export function homePage({ device, source, userAgent, heroWidth, display, hintsBlockedHost }) {
  const s = device.specs;
  const found = device.status === 0;
  const rows = [
    ["Vendor", words([s.general_vendor])],
    ["Model", words([s.general_model])],
    ["Type", words([device.class])],
    ["Platform", words([s.general_platform, s.general_platform_version])],
    ["Browser", words([s.general_browser, s.general_browser_version])],
    ["Screen (typical of the model)", screen(device)],
    ["Answered by", `${ANSWERED_BY[device.source]} · ${SOURCE_LABEL[source.kind]}`],
    ["Decided by", decidedBy(device, userAgent)],
    ["Your screen (page script)", measuredScreen(device)],
  ];
  const why = found
    ? ""
    : `<p class="muted">No device matched (status ${escapeHtml(device.status)}: ${escapeHtml(device.message)}).${
        source.kind === "sample" ? ` The sample database knows only ${source.devices} devices.` : ""
      }</p>`;
  const choice =
    display === undefined
      ? `The display width of this device is unknown, so the server sent the default ${heroWidth}-px version`
      : display.whose === "model"
        ? `The typical display of this model is ${display.width} px wide, so the server sent the ${heroWidth}-px version`
        : `Your display is ${display.width} px wide (measured by the page script), so the server sent the ${heroWidth}-px version`;
  return layout({
    title: deviceName(device),
    active: "home",
    source,
    body: `<main class="page" data-page="home">
  ${hintsBlockedHost === undefined ? "" : insecureOriginNotice(hintsBlockedHost)}
  <section class="card device" aria-labelledby="device-name">
    <p class="eyebrow">You are browsing with</p>
    <h1 id="device-name">${escapeHtml(deviceName(device))}</h1>
    <p><span class="badge" data-class="${escapeHtml(device.class)}">${escapeHtml(device.class)}</span></p>
    ${why}
    <dl class="specs">
      ${rows
        .map(
          ([k, v]) =>
            `<div${k === "Answered by" || k.startsWith("Your screen") ? ' class="wide"' : ""}><dt>${k}</dt><dd>${escapeHtml(v)}</dd></div>`,
        )
        .join("\n      ")}
    </dl>
    <details>
      <summary>Your user-agent</summary>
      <code class="ua">${escapeHtml(userAgent || "(none sent)")}</code>
    </details>
  </section>

  <section class="card" aria-labelledby="adaptive">
    <h2 id="adaptive">Adaptive image</h2>
    <figure class="hero">
      <img id="hero" src="/images/hero/${heroWidth}.svg" width="${heroWidth}" height="${heroHeight(heroWidth)}" alt="Landscape drawing, ${heroWidth} pixels wide">
      <figcaption>${choice}, out of ${HERO_WIDTHS.join(", ")}:
        <code>pickAsset(req.device, [${HERO_WIDTHS.join(", ")}], { defaultWidth: ${DEFAULT_HERO_WIDTH} })</code>.</figcaption>
    </figure>
  </section>

  <section class="links">
    <a class="card link" href="/shop">
      <h2>Route branching →</h2>
      <p>One URL, two pages: phones get the mobile shop, everything else the desktop one.</p>
      <code>app.get("/shop", byDevice({ Mobile, default }))</code>
    </a>
    <a class="card link" href="/api/device">
      <h2>JSON →</h2>
      <p>The whole <code>req.device</code> object, as your handlers see it.</p>
      <code>res.json(req.device)</code>
    </a>
  </section>
</main>`,
  });
}

/** Products of the demo shop: name, price, swatch colour. */
const PRODUCTS = /** @type {const} */ ([
  { name: "Trail backpack", price: "€89", color: "#0ea5e9" },
  { name: "Rain jacket", price: "€129", color: "#f97316" },
  { name: "Camp mug", price: "€14", color: "#a855f7" },
  { name: "Head torch", price: "€35", color: "#eab308" },
  { name: "Water bottle", price: "€22", color: "#10b981" },
  { name: "Trekking poles", price: "€59", color: "#ef4444" },
]);

/**
 * The mobile variant of /shop: one column, big touch targets, a sticky cart bar.
 * @param {object} data
 * @param {Device} data.device
 * @param {DetectionSource} data.source
 * @returns {string}
 */
export function shopMobilePage({ device, source }) {
  const items = PRODUCTS.map(
    (p) => `<li class="item">
      <span class="swatch" style="background:${p.color}" aria-hidden="true"></span>
      <span class="name">${p.name}<small>${p.price}</small></span>
      <button type="button">Add</button>
    </li>`,
  ).join("\n    ");
  return layout({
    title: "Shop (mobile)",
    active: "shop",
    source,
    body: `<main class="page shop-mobile" data-variant="mobile">
  <h1>Shop <span class="badge" data-class="Mobile">Mobile variant</span></h1>
  <p class="muted">Served by the <code>Mobile</code> handler of <code>byDevice()</code> because your device, ${escapeHtml(
    deviceName(device),
  )}, is a phone. Open this page on a computer to get the desktop variant at the same URL.</p>
  <ul class="list">
    ${items}
  </ul>
  <div class="cartbar"><span>Cart · 0 items</span><button type="button">Checkout</button></div>
</main>`,
  });
}

/**
 * The desktop variant of /shop: filters beside a product grid.
 * @param {object} data
 * @param {Device} data.device
 * @param {DetectionSource} data.source
 * @returns {string}
 */
export function shopDesktopPage({ device, source }) {
  const cards = PRODUCTS.map(
    (p) => `<article class="product">
        <div class="swatch" style="background:${p.color}" aria-hidden="true"></div>
        <h3>${p.name}</h3>
        <p>${p.price}</p>
        <button type="button">Add to cart</button>
      </article>`,
  ).join("\n      ");
  return layout({
    title: "Shop (desktop)",
    active: "shop",
    source,
    body: `<main class="page shop-desktop" data-variant="desktop">
  <h1>Shop <span class="badge" data-class="Computer">Desktop variant</span></h1>
  <p class="muted">Served by the <code>default</code> handler of <code>byDevice()</code>: your device, ${escapeHtml(
    deviceName(device),
  )} (${escapeHtml(device.class)}), is not a phone. Open this page on a phone to get the mobile variant at the same URL.</p>
  <div class="shop-layout">
    <aside class="card filters">
      <h2>Filter</h2>
      <label><input type="checkbox" checked> In stock</label>
      <label><input type="checkbox"> On sale</label>
      <label><input type="checkbox"> Free delivery</label>
    </aside>
    <div class="grid">
      ${cards}
    </div>
  </div>
</main>`,
  });
}

/**
 * `/api/device` for a browser: the JSON, pretty-printed and wrapped to the screen, with a link back.
 * @param {object} data
 * @param {unknown} data.json  What `/api/device` answers as JSON.
 * @param {DetectionSource} data.source
 * @returns {string}
 */
export function devicePage({ json, source }) {
  return layout({
    title: "req.device as JSON",
    source,
    body: `<main class="page" data-page="json">
  <section class="card" aria-labelledby="json-title">
    <h1 id="json-title"><code>req.device</code></h1>
    <p class="muted">What your handlers see, as <code>/api/device</code> answers it to a program
      (<code>Accept: application/json</code>).</p>
    <pre class="json">${escapeHtml(JSON.stringify(json, null, 2))}</pre>
    <p><a href="/">← Back to your device</a></p>
  </section>
</main>`,
  });
}

/**
 * The 404 page.
 * @param {DetectionSource} source
 * @returns {string}
 */
export function notFoundPage(source) {
  return layout({
    title: "Not found",
    source,
    body: `<main class="page"><section class="card"><h1>Not found</h1><p><a href="/">Back to your device</a></p></section></main>`,
  });
}
