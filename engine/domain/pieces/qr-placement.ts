// Where a QR code may go, checked at create against the product's sheet: on the page, and clear of
// what the engine prints there (a card's ink-free area, a letter's address window and return address
// on its first page). A code the customer cannot see, or one a carrier's scanner would read instead of
// the IMb, is refused then rather than printed.
import { ApiError } from '../../base/errors';
import { qrPagesOf, type QrCode } from '../../catalog/mailpieces/qr-code';
import type { Resource } from '../../catalog/types';
import { geometryOf, type SideGeometry, type Zone } from '../../catalog/products';

const inches = (n: number) => String(Math.round(n * 1000) / 1000);
const overlaps = (a: Zone, b: Zone) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function refuse(message: string): never {
  throw new ApiError('invalid', message, 422);
}

function check(qr: QrCode, side: SideGeometry, page: string, kept: Zone[]): void {
  const square: Zone = {
    x: qr.left ?? side.width - (qr.right ?? 0) - qr.width,
    y: qr.top ?? side.height - (qr.bottom ?? 0) - qr.width,
    width: qr.width,
    height: qr.width,
  };
  const sheet = `${inches(side.width)}x${inches(side.height)} in`;
  if (square.x < 0 || square.y < 0 || square.x + square.width > side.width || square.y + square.height > side.height)
    refuse(`qr_code does not fit on ${page} (${sheet}): a ${inches(qr.width)} in code at those offsets runs off it`);
  const zone = kept.find((z) => overlaps(square, z));
  if (zone)
    refuse(
      `qr_code overlaps the area the address and postage are printed in on ${page} ` +
        `(${inches(zone.width)}x${inches(zone.height)} in at ${inches(zone.x)}, ${inches(zone.y)} in from the top left)`,
    );
}

export function assertQrPlacement(
  resource: Resource,
  body: { qr_code?: QrCode; size?: string; address_placement?: unknown; extra_service?: unknown },
): void {
  const qr = body.qr_code;
  const pages = resource.mailpiece?.qrPages;
  if (!qr || !pages) return;
  const named = qrPagesOf(qr.pages, pages);
  if ('error' in named) return; // the catalog rule has refused it already
  const placement = typeof body.address_placement === 'string' ? body.address_placement : undefined;
  const geometry = geometryOf(resource.name, String(body.size ?? ''), placement);
  if (pages === 'numbers') {
    const side = geometry.sides[0];
    // page 1 carries the address block unless a cover or address page goes in front of it
    const addressed = !body.extra_service && placement !== 'insert_blank_page';
    for (const page of named.pages) {
      const kept = page === 1 && addressed ? [side.addressZone, side.returnZone] : [];
      check(
        qr,
        side,
        `page ${page}`,
        kept.filter((z): z is Zone => z !== undefined),
      );
    }
    return;
  }
  for (const side of geometry.sides) {
    if (named.pages.includes(side.field)) check(qr, side, `the ${side.field}`, side.inkFree ? [side.inkFree] : []);
  }
}
