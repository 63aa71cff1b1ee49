// Apple's published iPhone displays: which models share each screen, in points and scale factor.

/** One iPhone model, as Apple names it. */
export interface IPhoneModel {
  /** Apple's name for it (`iPhone XS Max`). */
  readonly name: string;
  /** Its Apple hardware identifier (`iPhone11,6` → [11, 6]): a later identifier is a later model. */
  readonly hardwareId: readonly [number, number];
  /** The major iOS version it shipped with. */
  readonly firstIos: number;
}

/** One screen that several iPhones share: what a page script measures on each of them. */
export interface IPhoneScreen {
  /** Portrait width and height in points, which Safari reports as `screen.width` × `screen.height`. */
  readonly points: readonly [number, number];
  /** The scale factor (`devicePixelRatio`). */
  readonly scale: number;
  /**
   * The panel's pixels, portrait, where it has fewer than points × scale: Apple renders at
   * points × scale and scales the image down to fit (the Plus models up to the 8 Plus, the minis).
   */
  readonly panel?: readonly [number, number];
  /** The models with this screen, oldest first. */
  readonly models: readonly IPhoneModel[];
}

const model = (name: string, major: number, minor: number, firstIos: number): IPhoneModel => ({
  name,
  hardwareId: [major, minor],
  firstIos,
});

/**
 * Every screen an iPhone sold since the XR has, with every model that shares it and runs iOS 16
 * or later (the iPhone 8 and X on), from Apple's published display specifications (resolution,
 * scale) and the iOS each model shipped with.
 */
export const IPHONE_SCREENS: readonly IPhoneScreen[] = [
  {
    points: [375, 667],
    scale: 2,
    models: [
      model("iPhone 8", 10, 1, 11),
      model("iPhone SE (2nd generation)", 12, 8, 13),
      model("iPhone SE (3rd generation)", 14, 6, 15),
    ],
  },
  {
    points: [414, 736],
    scale: 3,
    panel: [1080, 1920],
    models: [model("iPhone 8 Plus", 10, 2, 11)],
  },
  {
    points: [375, 812],
    scale: 3,
    models: [model("iPhone X", 10, 3, 11), model("iPhone XS", 11, 2, 12), model("iPhone 11 Pro", 12, 3, 13)],
  },
  {
    points: [375, 812],
    scale: 3,
    panel: [1080, 2340],
    models: [model("iPhone 12 mini", 13, 1, 14), model("iPhone 13 mini", 14, 4, 15)],
  },
  {
    points: [414, 896],
    scale: 2,
    models: [model("iPhone XR", 11, 8, 12), model("iPhone 11", 12, 1, 13)],
  },
  {
    points: [414, 896],
    scale: 3,
    models: [model("iPhone XS Max", 11, 6, 12), model("iPhone 11 Pro Max", 12, 5, 13)],
  },
  {
    points: [390, 844],
    scale: 3,
    models: [
      model("iPhone 12", 13, 2, 14),
      model("iPhone 12 Pro", 13, 3, 14),
      model("iPhone 13 Pro", 14, 2, 15),
      model("iPhone 13", 14, 5, 15),
      model("iPhone 14", 14, 7, 16),
      model("iPhone 16e", 17, 5, 18),
    ],
  },
  {
    points: [428, 926],
    scale: 3,
    models: [
      model("iPhone 12 Pro Max", 13, 4, 14),
      model("iPhone 13 Pro Max", 14, 3, 15),
      model("iPhone 14 Plus", 14, 8, 16),
    ],
  },
  {
    points: [393, 852],
    scale: 3,
    models: [
      model("iPhone 14 Pro", 15, 2, 16),
      model("iPhone 15", 15, 4, 17),
      model("iPhone 15 Pro", 16, 1, 17),
      model("iPhone 16", 17, 3, 18),
    ],
  },
  {
    points: [430, 932],
    scale: 3,
    models: [
      model("iPhone 14 Pro Max", 15, 3, 16),
      model("iPhone 15 Plus", 15, 5, 17),
      model("iPhone 15 Pro Max", 16, 2, 17),
      model("iPhone 16 Plus", 17, 4, 18),
    ],
  },
  {
    points: [402, 874],
    scale: 3,
    models: [
      model("iPhone 16 Pro", 17, 1, 18),
      model("iPhone 17 Pro", 18, 1, 26),
      model("iPhone 17", 18, 3, 26),
    ],
  },
  {
    points: [440, 956],
    scale: 3,
    models: [model("iPhone 16 Pro Max", 17, 2, 18), model("iPhone 17 Pro Max", 18, 2, 26)],
  },
  {
    points: [420, 912],
    scale: 3,
    models: [model("iPhone Air", 18, 4, 26)],
  },
];
