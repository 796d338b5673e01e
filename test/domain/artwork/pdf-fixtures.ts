// Real PDFs for the artwork checks, made with pdf-lib: pages of given sizes in Helvetica (a standard
// font, not embedded), a PDF whose trailer names an /Encrypt dictionary, and fonts of every kind written
// as font dictionaries (with or without a font program).
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
  StandardFonts,
  beginText,
  degrees,
  endText,
  moveText,
  setFontAndSize,
  showText,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import zlib from 'node:zlib';

/** Pages of these sizes in inches (none: a PDF without pages); `rotate` turns every page. */
export async function pdfOf(sizes: [number, number][], rotate = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  sizes.forEach(([w, h], i) => {
    const page = doc.addPage([w * 72, h * 72]);
    page.drawText(`Page ${i + 1}`, { x: 18, y: 18, size: 12, font });
    if (rotate) page.setRotation(degrees(rotate));
  });
  return Buffer.from(await doc.save({ addDefaultPage: false }));
}

/**
 * A 4x6 postcard side whose trailer has a standard security handler's /Encrypt dictionary, as an
 * encrypting tool writes it (pdf-lib cannot encrypt the content itself, and need not: readers and the
 * check go by the trailer).
 */
export async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([6.25 * 72, 4.25 * 72]);
  const key = PDFHexString.of('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a');
  doc.context.trailerInfo.Encrypt = doc.context.register(
    doc.context.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, O: key, U: key, P: -3904 }),
  );
  doc.context.trailerInfo.ID = doc.context.obj([PDFHexString.of('00112233'), PDFHexString.of('00112233')]);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

export interface FontSpec {
  baseFont: string;
  subtype?: 'Type1' | 'TrueType' | 'Type0' | 'Type3';
  /** the key of the font program in its descriptor; none: not embedded */
  program?: 'FontFile' | 'FontFile2' | 'FontFile3';
  /** used from a form XObject rather than from the page's own resources */
  inForm?: boolean;
}

function fontDict(doc: PDFDocument, spec: FontSpec): PDFRef {
  const { context } = doc;
  const descriptor: Record<string, unknown> = {
    Type: 'FontDescriptor',
    FontName: spec.baseFont,
    Flags: 32,
    FontBBox: [0, -200, 1000, 900],
    ItalicAngle: 0,
    Ascent: 900,
    Descent: -200,
    CapHeight: 700,
    StemV: 80,
  };
  if (spec.program) descriptor[spec.program] = context.register(context.stream('not a real font program'));
  const descriptorRef = context.register(context.obj(descriptor as never));
  if (spec.subtype === 'Type3')
    return context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'Type3',
        FontBBox: [0, 0, 1000, 1000],
        FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
        CharProcs: {},
        Encoding: { Type: 'Encoding', Differences: [] },
        FirstChar: 0,
        LastChar: 0,
        Widths: [0],
      }),
    );
  if (spec.subtype === 'Type0') {
    const cid = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: spec.baseFont,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptorRef,
      }),
    );
    return context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: spec.baseFont,
        Encoding: 'Identity-H',
        DescendantFonts: [cid],
      }),
    );
  }
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: spec.subtype ?? 'TrueType',
      BaseFont: spec.baseFont,
      FirstChar: 32,
      LastChar: 126,
      FontDescriptor: descriptorRef,
    }),
  );
}

function writeWith(page: PDFPage, name: string) {
  page.pushOperators(
    beginText(),
    setFontAndSize(name, 24),
    moveText(36, 36),
    showText(PDFHexString.of('4869')),
    endText(),
  );
}

/** A 4x6 postcard side (6.25x4.25 in) writing with the given font. */
export async function pdfWithFont(spec: FontSpec, sizeIn: [number, number] = [6.25, 4.25]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([sizeIn[0] * 72, sizeIn[1] * 72]);
  const font = fontDict(doc, spec);
  if (!spec.inForm) {
    page.node.setFontDictionary(PDFName.of('F9'), font);
    writeWith(page, 'F9');
  } else {
    const content = 'BT /F9 24 Tf 36 36 Td (Hi) Tj ET';
    const form = doc.context.register(
      doc.context.stream(content, {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 200, 100],
        Resources: { Font: { F9: font } },
      }),
    );
    page.node.setXObject(PDFName.of('X1'), form);
    page.node.addContentStream(doc.context.register(doc.context.stream('q /X1 Do Q')));
  }
  return Buffer.from(await doc.save());
}

/** `megabytes` of zero bytes, deflated (zeros compress about a thousandfold: a bomb's payload). */
const deflatedZeros = (megabytes: number): Buffer => zlib.deflateSync(Buffer.alloc(megabytes << 20), { level: 9 });

/**
 * Decompression bombs at a 4x6 postcard side's size, each otherwise a valid one-page PDF: an object
 * stream, the page's own content stream, or an image whose few bytes stand for a huge picture.
 */
export async function bombPdf(kind: 'objects' | 'drawing' | 'image', megabytes = 96): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([6.25 * 72, 4.25 * 72]);
  const { context } = doc;
  if (kind === 'drawing') {
    const contents = context.stream(deflatedZeros(megabytes), { Filter: 'FlateDecode' });
    page.node.set(PDFName.of('Contents'), context.register(contents));
  } else if (kind === 'objects') {
    context.register(
      context.stream(deflatedZeros(megabytes), { Type: 'ObjStm', N: 1, First: 0, Filter: 'FlateDecode' }),
    );
  } else {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    const image = context.register(
      context.stream(jpeg, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: 30000,
        Height: 30000,
        ColorSpace: 'DeviceRGB',
        BitsPerComponent: 8,
        Filter: 'DCTDecode',
      }),
    );
    page.node.setXObject(PDFName.of('Im0'), image);
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
