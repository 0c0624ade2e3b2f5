import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCREENSHOTS } from './harness.ts';

/**
 * The first page of a PDF as `screenshots/<name>.png` (Debian's pdftoppm), to look at what is
 * printed as a person would see it.
 */
export function pdfShot(pdf: ArrayBuffer | Buffer, name: string, dpi = 80): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-pdf-'));
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), Buffer.from(pdf as ArrayBuffer));
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      path.join(dir, 'doc.pdf'),
      path.join(dir, 'page'),
    ]);
    // Copied, not renamed: the temporary folder may be on another file system (npm test puts it in
    // /dev/shm).
    copyFileSync(path.join(dir, 'page.png'), path.join(SCREENSHOTS, `${name}.png`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
