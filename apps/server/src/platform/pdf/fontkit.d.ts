// fontkit (pdfkit's font parser) ships no types: what document.ts uses of it.
declare module 'fontkit' {
  /** A parsed font; pdfkit takes it wherever it takes a font file. */
  export interface Font {
    layout(text: string): unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
