import bwipjs from 'bwip-js/node';

/** The symbologies printed documents use: QR (myDATA, payment links), Code 128 (payment references). */
export type BarcodeType = 'qrcode' | 'code128' | 'datamatrix' | 'ean13';

export interface BarcodeSpec {
  type: BarcodeType;
  text: string;
  /** Pixels per module: the PNG's resolution. */
  scale?: number;
  /** Bar height of a linear code, in millimetres (bwip-js's unit). */
  barHeight?: number;
  /** Print the text under a linear code. */
  withText?: boolean;
}

/** The code as a PNG (bwip-js); rejects text the symbology cannot carry. */
export function barcodePng(spec: BarcodeSpec): Promise<Buffer> {
  const square = spec.type === 'qrcode' || spec.type === 'datamatrix';
  return bwipjs.toBuffer({
    bcid: spec.type,
    text: spec.text,
    scale: spec.scale ?? 3,
    ...(spec.type === 'qrcode' ? { eclevel: 'M' } : {}),
    ...(square ? {} : { height: spec.barHeight ?? 10 }),
    includetext: !square && (spec.withText ?? true),
    textxalign: 'center',
  });
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Draws the code fitted into `box`, centred, keeping its proportions. */
export async function drawBarcode(doc: PDFKit.PDFDocument, spec: BarcodeSpec, box: Box): Promise<void> {
  const png = await barcodePng(spec);
  doc.image(png, box.x, box.y, { fit: [box.width, box.height], align: 'center', valign: 'center' });
}
