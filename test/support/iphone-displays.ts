// Every iPhone since the XR as Apple's tech specs describe its display: test cases for the model from the screen.

/** One iPhone, from Apple's published specifications. */
export interface IPhoneDisplay {
  /** Apple's name for it. */
  readonly model: string;
  /** The display's resolution in pixels, portrait, as the tech specs give it ("2796-by-1290"). */
  readonly pixels: readonly [number, number];
  /** The scale factor (`devicePixelRatio`), from Apple's design resources (@2x, @3x). */
  readonly scale: number;
  /** The major iOS version it shipped with. */
  readonly ios: number;
}

/** Written from Apple's tech specs pages, independently of the rule's own table (which is in points). */
export const IPHONE_DISPLAYS: readonly IPhoneDisplay[] = [
  { model: "iPhone XR", pixels: [828, 1792], scale: 2, ios: 12 },
  { model: "iPhone XS", pixels: [1125, 2436], scale: 3, ios: 12 },
  { model: "iPhone XS Max", pixels: [1242, 2688], scale: 3, ios: 12 },
  { model: "iPhone 11", pixels: [828, 1792], scale: 2, ios: 13 },
  { model: "iPhone 11 Pro", pixels: [1125, 2436], scale: 3, ios: 13 },
  { model: "iPhone 11 Pro Max", pixels: [1242, 2688], scale: 3, ios: 13 },
  { model: "iPhone SE (2nd generation)", pixels: [750, 1334], scale: 2, ios: 13 },
  { model: "iPhone 12 mini", pixels: [1080, 2340], scale: 3, ios: 14 },
  { model: "iPhone 12", pixels: [1170, 2532], scale: 3, ios: 14 },
  { model: "iPhone 12 Pro", pixels: [1170, 2532], scale: 3, ios: 14 },
  { model: "iPhone 12 Pro Max", pixels: [1284, 2778], scale: 3, ios: 14 },
  { model: "iPhone 13 mini", pixels: [1080, 2340], scale: 3, ios: 15 },
  { model: "iPhone 13", pixels: [1170, 2532], scale: 3, ios: 15 },
  { model: "iPhone 13 Pro", pixels: [1170, 2532], scale: 3, ios: 15 },
  { model: "iPhone 13 Pro Max", pixels: [1284, 2778], scale: 3, ios: 15 },
  { model: "iPhone SE (3rd generation)", pixels: [750, 1334], scale: 2, ios: 15 },
  { model: "iPhone 14", pixels: [1170, 2532], scale: 3, ios: 16 },
  { model: "iPhone 14 Plus", pixels: [1284, 2778], scale: 3, ios: 16 },
  { model: "iPhone 14 Pro", pixels: [1179, 2556], scale: 3, ios: 16 },
  { model: "iPhone 14 Pro Max", pixels: [1290, 2796], scale: 3, ios: 16 },
  { model: "iPhone 15", pixels: [1179, 2556], scale: 3, ios: 17 },
  { model: "iPhone 15 Plus", pixels: [1290, 2796], scale: 3, ios: 17 },
  { model: "iPhone 15 Pro", pixels: [1179, 2556], scale: 3, ios: 17 },
  { model: "iPhone 15 Pro Max", pixels: [1290, 2796], scale: 3, ios: 17 },
  { model: "iPhone 16", pixels: [1179, 2556], scale: 3, ios: 18 },
  { model: "iPhone 16 Plus", pixels: [1290, 2796], scale: 3, ios: 18 },
  { model: "iPhone 16 Pro", pixels: [1206, 2622], scale: 3, ios: 18 },
  { model: "iPhone 16 Pro Max", pixels: [1320, 2868], scale: 3, ios: 18 },
  { model: "iPhone 16e", pixels: [1170, 2532], scale: 3, ios: 18 },
  { model: "iPhone 17", pixels: [1206, 2622], scale: 3, ios: 26 },
  { model: "iPhone Air", pixels: [1260, 2736], scale: 3, ios: 26 },
  { model: "iPhone 17 Pro", pixels: [1206, 2622], scale: 3, ios: 26 },
  { model: "iPhone 17 Pro Max", pixels: [1320, 2868], scale: 3, ios: 26 },
];

/**
 * The minis' panel is smaller than the screen they render (375 x 812 points at 3x, shown on
 * 1080 x 2340): Safari reports the rendered points, in Apple's design resources.
 */
const RENDERED_POINTS: Readonly<Record<string, readonly [number, number]>> = {
  "iPhone 12 mini": [375, 812],
  "iPhone 13 mini": [375, 812],
};

/** Safari's user-agent on an iPhone with iOS `ios`: from iOS 26 the OS token stays at 18 and `Version/` tells. */
export function iPhoneSafari(ios: number): string {
  const token = ios >= 26 ? "18_6" : `${ios}_0`;
  return `Mozilla/5.0 (iPhone; CPU iPhone OS ${token} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${ios}.0 Mobile/15E148 Safari/604.1`;
}

/** The page script's cookies an iPhone's screen gives: its pixels over its scale, and the rendered points where they differ. */
export function screenCookies(display: IPhoneDisplay): string[] {
  const [w, h] = display.pixels;
  const cookies = [
    `hd_screen=t5w${Math.round(w / display.scale)}h${Math.round(h / display.scale)}r${display.scale}`,
  ];
  const rendered = RENDERED_POINTS[display.model];
  if (rendered !== undefined) cookies.push(`hd_screen=t5w${rendered[0]}h${rendered[1]}r${display.scale}`);
  return cookies;
}
