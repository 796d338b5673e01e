// Where a house number lies along a segment: its share of the side's range, walked along the line
// (TIGER's from number is at the line's first vertex). Planar on degrees scaled by the latitude's
// cosine: over a block the error is far below the data's own.

/** "lon,lat lon,lat ..." as stored (store/streets.ts). */
export function parseCoords(coords: string): [number, number][] {
  return coords.split(' ').map((pair) => {
    const [lon, lat] = pair.split(',');
    return [Number(lon), Number(lat)];
  });
}

/** The point at `share` (0 to 1) of the line's length. */
export function alongLine(line: readonly [number, number][], share: number): { lon: number; lat: number } {
  if (line.length === 1) return { lon: line[0][0], lat: line[0][1] };
  const scale = Math.cos((line[0][1] * Math.PI) / 180);
  const lengths = line.slice(1).map(([lon, lat], i) => Math.hypot((lon - line[i][0]) * scale, lat - line[i][1]));
  const total = lengths.reduce((a, b) => a + b, 0);
  let left = Math.min(1, Math.max(0, share)) * total;
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i] || i === lengths.length - 1) {
      const t = lengths[i] === 0 ? 0 : Math.min(1, left / lengths[i]);
      const [a, b] = [line[i], line[i + 1]];
      return { lon: a[0] + (b[0] - a[0]) * t, lat: a[1] + (b[1] - a[1]) * t };
    }
    left -= lengths[i];
  }
  return { lon: line[line.length - 1][0], lat: line[line.length - 1][1] };
}

/** The share of a side's range a number sits at (a side of one number sits at its middle). */
export function shareOfRange(number: number, from: number, to: number): number {
  return from === to ? 0.5 : (number - from) / (to - from);
}

/** 6 decimals (about 10 cm), as the data stores them. */
export const round6 = (n: number) => Math.round(n * 1_000_000) / 1_000_000;
