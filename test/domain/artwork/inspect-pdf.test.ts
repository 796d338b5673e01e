// What inspectPdf reads of real PDFs: page sizes as shown, encryption, and which fonts lack a program.
import test from 'ava';
import { inspectPdf } from '../../../engine/domain/artwork/inspect-pdf';
import { encryptedPdf, pdfOf, pdfWithFont, type FontSpec } from './pdf-fixtures';

test('page sizes in inches, turned by /Rotate; no pages is zero pages', async (t) => {
  const plain = await inspectPdf(
    await pdfOf([
      [6.25, 4.25],
      [8.5, 11],
    ]),
  );
  t.like(plain, {
    readable: true,
    pages: [
      { width: 6.25, height: 4.25 },
      { width: 8.5, height: 11 },
    ],
  });
  t.like(await inspectPdf(await pdfOf([[4.25, 6.25]], 90)), { readable: true, pages: [{ width: 6.25, height: 4.25 }] });
  t.like(await inspectPdf(await pdfOf([])), { readable: true, pages: [] });
});

test('an /Encrypt dictionary in the trailer is encryption; garbage is unreadable', async (t) => {
  t.deepEqual(await inspectPdf(await encryptedPdf()), { readable: false, encrypted: true });
  t.deepEqual(await inspectPdf(Buffer.from('%PDF-1.4\nnothing here\n')), { readable: false, encrypted: false });
});

test('fonts: the ones without a program are listed by base name, subset tag removed', async (t) => {
  const cases: [FontSpec, string[]][] = [
    [{ baseFont: 'Garamond', subtype: 'TrueType' }, ['Garamond']],
    [{ baseFont: 'ABCDEF+Garamond', subtype: 'TrueType' }, ['Garamond']],
    [{ baseFont: 'Garamond', subtype: 'TrueType', program: 'FontFile2' }, []],
    [{ baseFont: 'Garamond', subtype: 'Type1', program: 'FontFile' }, []],
    [{ baseFont: 'Garamond', subtype: 'Type1', program: 'FontFile3' }, []],
    [{ baseFont: 'NotoSans', subtype: 'Type0' }, ['NotoSans']],
    [{ baseFont: 'NotoSans', subtype: 'Type0', program: 'FontFile2' }, []],
    [{ baseFont: 'Drawn', subtype: 'Type3' }, []],
    [{ baseFont: 'Garamond', subtype: 'TrueType', inForm: true }, ['Garamond']],
  ];
  for (const [spec, expected] of cases) {
    const found = await inspectPdf(await pdfWithFont(spec));
    t.deepEqual(found.readable && found.unembeddedFonts, expected, JSON.stringify(spec));
  }
  t.deepEqual((await inspectPdf(await pdfOf([[6.25, 4.25]]))) as unknown, {
    readable: true,
    pages: [{ width: 6.25, height: 4.25 }],
    unembeddedFonts: ['Helvetica'],
  });
});
