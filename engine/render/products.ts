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
  /** the ink-free area the engine prints the recipient, IMb and postage into, on this side */
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

/** The address zone of a card back or a mailer's address panel: lower right, inside the safe area. */
function cardZones(pageWidth: number, pageHeight: number, zoneWidth: number) {
  const height = 2.375;
  const right = 0.275;
  const bottom = 0.25;
  const addressZone = { x: pageWidth - right - zoneWidth, y: pageHeight - bottom - height, width: zoneWidth, height };
  return {
    addressZone,
    returnZone: { x: 0.275, y: 0.25, width: 2.75, height: 0.875 },
    postageZone: { x: pageWidth - right - 1.1, y: 0.25, width: 1.1, height: 0.9 },
  };
}

const POSTCARDS: Record<string, [number, number, number]> = {
  '4x6': [6, 4, 3.2835],
  '6x9': [9, 6, 4],
  '6x11': [11, 6, 4],
};

const SELF_MAILERS: Record<string, [number, number]> = {
  '6x18_bifold': [18, 6],
  '11x9_bifold': [18, 11],
  '12x9_bifold': [18, 12],
  '17.75x9_trifold': [17.75, 9],
};

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

/** A one-sheet piece: a plain side, and the side that carries the address block in card zones. */
function twoSided(
  kind: string,
  size: string,
  page: { width: number; height: number },
  [plain, addressed]: [string, string],
  zoneWidth: number,
): ProductGeometry {
  return {
    kind,
    size,
    multiPage: false,
    sides: [
      { field: plain, ...page },
      { field: addressed, ...page, ...cardZones(page.width, page.height, zoneWidth) },
    ],
  };
}

export function geometryOf(kind: string, size: string, addressPlacement = 'top_first_page'): ProductGeometry {
  if (kind === 'postcards') {
    const [w, h, zoneWidth] = POSTCARDS[size] ?? POSTCARDS['4x6'];
    return twoSided(kind, size, withBleed(w, h), ['front', 'back'], zoneWidth);
  }
  if (kind === 'self_mailers') {
    const [w, h] = SELF_MAILERS[size] ?? SELF_MAILERS['6x18_bifold'];
    return twoSided(kind, size, withBleed(w, h), ['inside', 'outside'], 4);
  }
  if (kind === 'snap_packs') {
    const outside = withBleed(18, 6);
    return {
      kind,
      size,
      multiPage: false,
      sides: [
        { field: 'inside', ...withBleed(8.5, 11) },
        { field: 'outside', ...outside, ...cardZones(outside.width, outside.height, 4) },
      ],
    };
  }
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
