import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, type ExportFormat, renderExport } from './render.ts';
import { columns5, failingRows, once, readAll } from './test-fixtures.ts';

const formats = Object.keys(EXPORT_FORMATS) as ExportFormat[];

describe('renderExport', () => {
  it.each(formats)('passes a failure of the rows on as a stream error (%s)', async (format) => {
    const rendered = renderExport({
      format,
      title: 'Χειριστές',
      language: 'el',
      columns: columns5,
      rows: failingRows(),
    });
    await expect(readAll(rendered.stream)).rejects.toThrow('database went away');
  });

  it.each(formats)('renders an empty list as a file with its header only (%s)', async (format) => {
    const rendered = renderExport({
      format,
      title: 'Χειριστές',
      language: 'el',
      columns: columns5,
      rows: once([]),
    });
    const bytes = await readAll(rendered.stream);
    expect(bytes.length).toBeGreaterThan(3);
  });

  it('refuses an unknown format', () => {
    expect(() =>
      renderExport({
        format: 'odt' as ExportFormat,
        title: 'x',
        language: 'el',
        columns: [],
        rows: once([]),
      }),
    ).toThrow('unknown export format');
  });
});
