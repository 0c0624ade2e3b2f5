/**
 * The PDF toolkit every printed document uses (exports, the protocol book, receipts, and next bills,
 * route sheets and financial documents): one font, palette, page heading, table, footers, totals, codes
 * and chart. It knows no module: company details, labels and rows come in as data.
 */
export { drawFields, drawRule, drawTotals, type FieldsLayout, type TotalLine } from './blocks.ts';
export { type ChartPoint, type ChartSpec, drawChart } from './chart.ts';
export { type BarcodeSpec, type BarcodeType, type Box, barcodePng, drawBarcode } from './codes.ts';
export { compactPage, createPdf, PDF_COLORS, PDF_FONTS, type Pdf, type PdfOptions } from './document.ts';
export {
  type CompanyDetails,
  drawFooter,
  drawPageFooters,
  drawPageHeading,
  drawTitle,
  type Footer,
  type PageHeading,
  pageHeadingHeight,
  pageLabel,
} from './page.ts';
export { type CellAlign, type PdfColumn, PdfTable, type PdfTableOptions } from './table.ts';
