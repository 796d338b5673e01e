import fs from 'node:fs';
// eslint-disable-next-line
const shpwrite = require('@mapbox/shp-write');
import * as shapefile from 'shapefile';
const rows = [{ FULLNAME: 'N Main St', LFROMHN: '1', LTOHN: '99' }, { FULLNAME: 'Berry St', LFROMHN: '100', LTOHN: '198' }];
const geoms = [[[[-122.4, 37.7], [-122.39, 37.71]]], [[[-122.5, 37.8], [-122.49, 37.81], [-122.48, 37.82]]]];
shpwrite.write(rows, 'POLYLINE', geoms, async (_e: unknown, files: any) => {
  fs.writeFileSync('/tmp/stx/a.shp', Buffer.from(files.shp.buffer));
  fs.writeFileSync('/tmp/stx/a.dbf', Buffer.from(files.dbf.buffer));
  const src = await shapefile.open('/tmp/stx/a.shp', '/tmp/stx/a.dbf');
  for (;;) { const r = await src.read(); if (r.done) break; console.log(JSON.stringify(r.value)); }
});
