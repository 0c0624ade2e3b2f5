import type { Language } from '@protocol/contracts';
import type { Box } from './codes.ts';
import { PDF_COLORS, PDF_FONTS } from './document.ts';

export interface ChartPoint {
  /** Under its bar or point, e.g. '03/2026'. */
  label: string;
  value: number;
}

export interface ChartSpec {
  kind: 'bar' | 'line';
  points: ChartPoint[];
  /** Above the plot, e.g. 'Κατανάλωση (m³)'. */
  title?: string;
  language: Language;
}

const AXIS_WIDTH = 34;
const LABEL_HEIGHT = 12;
const TITLE_HEIGHT = 14;
const TICKS = 4;

/** A round axis step (1, 2 or 5 × 10ⁿ) so that TICKS steps reach `max`. */
function niceStep(max: number): number {
  if (max <= 0) return 1;
  const rough = max / TICKS;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const norm = rough / magnitude;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
}

/**
 * A small bar or line chart (e.g. a consumer's consumption history) in vector strokes: a value axis with
 * round ticks and grid lines, one bar or point per label. Negative values count as zero.
 */
export function drawChart(doc: PDFKit.PDFDocument, spec: ChartSpec, box: Box): void {
  const number = new Intl.NumberFormat(spec.language === 'en' ? 'en-GB' : 'el-GR', {
    maximumFractionDigits: 2,
  });
  const values = spec.points.map((point) => Math.max(0, point.value));
  const step = niceStep(Math.max(0, ...values));
  const top = Math.max(step, Math.ceil(Math.max(0, ...values) / step) * step);
  const plot = {
    x: box.x + AXIS_WIDTH,
    y: box.y + (spec.title ? TITLE_HEIGHT : 0),
    width: box.width - AXIS_WIDTH,
    height: box.height - LABEL_HEIGHT - (spec.title ? TITLE_HEIGHT : 0),
  };
  const yOf = (value: number) => plot.y + plot.height - (value / top) * plot.height;

  if (spec.title) {
    doc.font(PDF_FONTS.bold).fontSize(9).fillColor(PDF_COLORS.text);
    doc.text(spec.title, box.x, box.y, { width: box.width, lineBreak: false, ellipsis: '…' });
  }
  doc.font(PDF_FONTS.regular).fontSize(7).lineWidth(0.5);
  for (let tick = 0; tick * step <= top + step / 1e6; tick++) {
    const y = yOf(tick * step);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.width, y)
      .strokeColor(tick === 0 ? PDF_COLORS.muted : PDF_COLORS.rule)
      .stroke();
    doc.fillColor(PDF_COLORS.muted);
    doc.text(number.format(tick * step), box.x, y - 3.5, {
      width: AXIS_WIDTH - 4,
      align: 'right',
      lineBreak: false,
    });
  }

  const slot = values.length > 0 ? plot.width / values.length : plot.width;
  const centre = (index: number) => plot.x + slot * index + slot / 2;
  if (spec.kind === 'bar') {
    const barWidth = slot * 0.6;
    values.forEach((value, index) => {
      const y = yOf(value);
      doc.rect(centre(index) - barWidth / 2, y, barWidth, plot.y + plot.height - y).fill(PDF_COLORS.accent);
    });
  } else if (values.length > 0) {
    doc.moveTo(centre(0), yOf(values[0] ?? 0));
    values.forEach((value, index) => {
      if (index > 0) doc.lineTo(centre(index), yOf(value));
    });
    doc.lineWidth(1.2).strokeColor(PDF_COLORS.accent).stroke();
    values.forEach((value, index) => {
      doc.circle(centre(index), yOf(value), 1.8).fill(PDF_COLORS.accent);
    });
  }
  doc.font(PDF_FONTS.regular).fontSize(7).fillColor(PDF_COLORS.muted);
  spec.points.forEach((point, index) => {
    doc.text(point.label, plot.x + slot * index, plot.y + plot.height + 3, {
      width: slot,
      align: 'center',
      lineBreak: false,
      ellipsis: '…',
    });
  });
  doc.fillColor(PDF_COLORS.text).lineWidth(0.5);
}
