// A PNG's or JPEG's pixel size, as the renderer will lay it onto the page (any density tag is ignored:
// the DPI that prints is pixels over the page's inches).
import { sharp } from '../../base/packages';

export interface ImageInspection {
  width: number;
  height: number;
}

/** undefined when the bytes (or the file at a path) are not a PNG or JPEG sharp can read. */
export async function inspectImage(file: Buffer | string): Promise<ImageInspection | undefined> {
  try {
    // sharp reads a path itself, and only the header it needs for the size
    const meta = await sharp()(file).metadata();
    if ((meta.format !== 'png' && meta.format !== 'jpeg') || !meta.width || !meta.height) return undefined;
    return { width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}
