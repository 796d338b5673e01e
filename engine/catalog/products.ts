// The physical products: page size of each artwork side (trim plus bleed), the fixed zones the engine
// draws into (address block, return address, postage) and page limits. One table read by the renderer,
// the overlay and the artwork checks, so a size is never written twice.
//
// Sizes are in inches, zones measured from the top-left corner of the artwork page as the customer
// supplies it (bleed included). Zone figures follow the vendor's published design guides.

export const POINTS_PER_INCH = 72;
export const BLEED_INCHES = 0.125;

export interface Zone {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SideGeometry {
  /** the artwork field it comes from (`front`, `outside`, `file`, ...) */
  field: string;
  /** page size of the artwork, bleed included */
  width: number;
  height: number;
  /** cards and mailers: the ink-free area every engine mark on this side stays inside */
  inkFree?: Zone;
  /** where the recipient block and its IMb go */
  addressZone?: Zone;
  /** where the return address goes, on this side */
  returnZone?: Zone;
  /** the postage indicia, top right of the address zone */
  postageZone?: Zone;
}

export interface ProductGeometry {
  kind: string;
  size: string;
  sides: SideGeometry[];
  /** letters and checks flow onto several pages; cards have one page a side */
  multiPage: boolean;
}

const withBleed = (trimWidth: number, trimHeight: number) => ({
  width: trimWidth + 2 * BLEED_INCHES,
  height: trimHeight + 2 * BLEED_INCHES,
});

/**
 * The ink-free area of each one-sheet product's addressed side, in inches from the top-left corner of
 * the page as the customer supplies it (bleed included), with the source of every number. The
 * vendor's design templates mark this area "Address and postage will be automatically printed here":
 * everything the engine prints on a card or a mailer goes inside it, and nothing outside it.
 */
export interface InkFreeEntry {
  /** trim size, inches, width by height as the artwork is drawn */
  trim: [number, number];
  inkFree: Zone;
  source: string;
}

/** A zone placed by its distance from the page's right and bottom edges. */
const fromBottomRight = (page: [number, number], size: [number, number], right: number, bottom: number): Zone => ({
  x: page[0] + 2 * BLEED_INCHES - right - size[0],
  y: page[1] + 2 * BLEED_INCHES - bottom - size[1],
  width: size[0],
  height: size[1],
});

/** The overlap of two readings of one template (where its markup and its numbers disagree). */
const overlap = (a: Zone, b: Zone): Zone => {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return {
    x,
    y,
    width: Math.min(a.x + a.width, b.x + b.width) - x,
    height: Math.min(a.y + a.height, b.y + b.height) - y,
  };
};

const CARD_BACK = [4, 2.375] as [number, number];

export const INK_FREE: Record<'postcards' | 'self_mailers' | 'snap_packs', Record<string, InkFreeEntry>> = {
  postcards: {
    '4x6': {
      trim: [6, 4],
      inkFree: fromBottomRight([6, 4], [3.2835, 2.375], 0.275, 0.25),
      source: 'vendor template postcards/4x6-back.html: #ink-free 3.2835 x 2.375 in, right 0.275 in, bottom 0.25 in',
    },
    '6x9': {
      trim: [9, 6],
      inkFree: fromBottomRight([9, 6], CARD_BACK, 0.275, 0.25),
      source: 'vendor template postcards/6x9-back.html: #ink-free 4 x 2.375 in, right 0.275 in, bottom 0.25 in',
    },
    '6x11': {
      trim: [11, 6],
      inkFree: fromBottomRight([11, 6], CARD_BACK, 0.275, 0.25),
      source: 'vendor template postcards/6x11-back.html: #ink-free 4 x 2.375 in, right 0.275 in, bottom 0.25 in',
    },
  },
  self_mailers: {
    // The template nests #ink-free (left 4.975, top 3.375) in a #safe-area at 0.25, 0.25, so Chromium
    // draws it 0.25 in lower and further right, across the centre fold at 9.125 in. The engine prints
    // only where both readings agree: inside the zone however the template is read, never on the fold.
    '6x18_bifold': {
      trim: [18, 6],
      inkFree: overlap(
        { x: 4.975, y: 3.375, width: 4, height: 2.375 },
        { x: 5.225, y: 3.625, width: 4, height: 2.375 },
      ),
      source:
        'vendor template self_mailers/6x18_outside.html: #ink-free 4 x 2.375 in at left 4.975, top 3.375 (nested in the 0.25 in safe area)',
    },
    '11x9_bifold': {
      trim: [9, 11],
      inkFree: { x: 4.75, y: 3.6, width: 4, height: 2.375 },
      source:
        'vendor template self_mailers/11x9_outside.html: 9.25 x 11.25 in sheet, #ink-free 4 x 2.375 in at left 4.75, top 3.6',
    },
    // As the 6x18: nested in the safe area by the markup, the page-relative numbers keep it above the fold.
    '12x9_bifold': {
      trim: [9, 12],
      inkFree: overlap({ x: 4.75, y: 3.6, width: 4, height: 2.375 }, { x: 5, y: 3.85, width: 4, height: 2.375 }),
      source:
        'vendor template self_mailers/12x9_outside.html: 9.25 x 12.25 in sheet, #ink-free 4 x 2.375 in at left 4.75, top 3.6 (nested in the 0.25 in safe area)',
    },
    '17.75x9_trifold': {
      trim: [17.75, 9],
      inkFree: fromBottomRight([17.75, 9], CARD_BACK, 0.275, 0.25),
      source: "no public template (beta size): the card backs' 4 x 2.375 in at right 0.275 in, bottom 0.25 in",
    },
  },
  snap_packs: {
    outside: {
      trim: [18, 6],
      inkFree: fromBottomRight([18, 6], CARD_BACK, 0.275, 0.25),
      source: "no public template: the card backs' 4 x 2.375 in at right 0.275 in, bottom 0.25 in",
    },
  },
};

/** Height of the band across the top of the ink-free area: return address left, postage right. */
const TOP_BAND = 0.8;
const POSTAGE_WIDTH = 1.1;

/**
 * How the engine lays out its marks inside an ink-free area, as the vendor's proofs do: the return
 * address at the top left, the postage indicia at the top right, the recipient with its IMb below.
 */
export function inkFreeLayout(zone: Zone): Pick<SideGeometry, 'returnZone' | 'postageZone' | 'addressZone'> {
  const band = Math.min(TOP_BAND, zone.height * 0.34);
  return {
    returnZone: { x: zone.x, y: zone.y, width: zone.width - POSTAGE_WIDTH, height: band },
    postageZone: { x: zone.x + zone.width - POSTAGE_WIDTH, y: zone.y, width: POSTAGE_WIDTH, height: band },
    addressZone: { x: zone.x, y: zone.y + band, width: zone.width, height: zone.height - band },
  };
}

/** A letter page: no bleed (the spec asks for 8.5x11 pages), the address block under a #10 window. */
export const LETTER_PAGES: Record<string, { width: number; height: number }> = {
  us_letter: { width: 8.5, height: 11 },
  us_legal: { width: 8.5, height: 14 },
};

/** Where the recipient block sits on a letter's first page, per address_placement. */
export function letterAddressZone(placement: string, pageHeight: number): Zone {
  const width = 4;
  const height = 1.25;
  if (placement === 'bottom_first_page') return { x: 0.6, y: pageHeight - 0.5 - height, width, height };
  if (placement === 'bottom_first_page_center')
    return { x: (8.5 - width) / 2, y: pageHeight - 0.5 - height, width, height };
  return { x: 0.6, y: 1.75, width, height };
}

export const LETTER_RETURN_ZONE: Zone = { x: 0.6, y: 0.45, width: 3.25, height: 0.875 };

/** The check itself: the top 3.5 in of the first page; check_bottom artwork fills the rest. */
export const CHECK_FACE: Zone = { x: 0, y: 0, width: 8.5, height: 3.5 };
export const CHECK_BOTTOM: Zone = { x: 0, y: 3.5, width: 8.5, height: 7.5 };

/** Letter page limits by destination and sidedness (spec: letter pages). */
export function letterPageLimit(abroad: boolean, doubleSided: boolean): number {
  return (abroad ? 6 : 60) * (doubleSided ? 2 : 1);
}

/** A one-sheet piece: a plain side, and the addressed side whose ink-free area gets the marks. */
function oneSheet(
  kind: string,
  size: string,
  entry: InkFreeEntry,
  plain: SideGeometry,
  addressed: string,
): ProductGeometry {
  const page = withBleed(...entry.trim);
  return {
    kind,
    size,
    multiPage: false,
    sides: [plain, { field: addressed, ...page, inkFree: entry.inkFree, ...inkFreeLayout(entry.inkFree) }],
  };
}

/**
 * Letter inserts, trim width by height in inches by their size names: cards are named height by width
 * (`2.125x3.375` is the horizontal card, as the vendor's default orientation says), the buckslip width
 * by height (it lies in a #10 envelope). Both take 1/8 in bleed, or trim size, like the other cards.
 */
export const INSERT_TRIMS: Record<'cards' | 'buckslips', Record<string, [number, number]>> = {
  cards: { '2.125x3.375': [3.375, 2.125], '3.375x2.125': [2.125, 3.375] },
  buckslips: { '8.75x3.75': [8.75, 3.75] },
};

function insertGeometry(kind: 'cards' | 'buckslips', size: string): ProductGeometry {
  const sizes = INSERT_TRIMS[kind];
  const name = Object.hasOwn(sizes, size) ? size : Object.keys(sizes)[0];
  const page = withBleed(...sizes[name]);
  return {
    kind,
    size: name,
    multiPage: false,
    sides: [
      { field: 'front', ...page },
      { field: 'back', ...page },
    ],
  };
}

export function geometryOf(kind: string, size: string, addressPlacement = 'top_first_page'): ProductGeometry {
  if (kind === 'cards' || kind === 'buckslips') return insertGeometry(kind, size);
  if (kind === 'postcards') {
    const entry = INK_FREE.postcards[size] ?? INK_FREE.postcards['4x6'];
    return oneSheet(kind, size, entry, { field: 'front', ...withBleed(...entry.trim) }, 'back');
  }
  if (kind === 'self_mailers') {
    const entry = INK_FREE.self_mailers[size] ?? INK_FREE.self_mailers['6x18_bifold'];
    return oneSheet(kind, size, entry, { field: 'inside', ...withBleed(...entry.trim) }, 'outside');
  }
  if (kind === 'snap_packs')
    return oneSheet(kind, size, INK_FREE.snap_packs.outside, { field: 'inside', ...withBleed(8.5, 11) }, 'outside');
  const letter = LETTER_PAGES[size] ?? LETTER_PAGES.us_letter;
  if (kind === 'checks') {
    return {
      kind,
      size: 'us_letter',
      multiPage: true,
      sides: [
        { field: 'check_bottom', ...LETTER_PAGES.us_letter },
        { field: 'attachment', ...LETTER_PAGES.us_letter },
      ],
    };
  }
  return {
    kind,
    size,
    multiPage: true,
    sides: [
      {
        field: 'file',
        ...letter,
        addressZone: letterAddressZone(addressPlacement, letter.height),
        returnZone: LETTER_RETURN_ZONE,
      },
    ],
  };
}
