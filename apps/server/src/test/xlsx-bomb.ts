// An xlsx whose one cell is as long as asked, built as a stream: a 300 MB cell is a file of a few
// hundred kB, and building it never holds the cell in memory (what an import must not do either).
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';

const MARKER = 'THE-LARGE-CELL';

interface Entry {
  name: Buffer;
  crc: number;
  size: number;
  data: Buffer;
}

function* repeated(chars: number): Generator<Buffer> {
  const block = Buffer.alloc(1024 * 1024, 'A');
  for (let left = chars; left > 0; left -= block.length)
    yield block.subarray(0, Math.min(left, block.length));
}

async function deflated(name: string, chunks: Iterable<Buffer>): Promise<Entry> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  let crc = 0;
  let size = 0;
  for (const chunk of chunks) {
    crc = crc32(chunk, crc);
    size += chunk.length;
    if (!deflate.write(chunk)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return { name: Buffer.from(name), crc, size, data: Buffer.concat(out) };
}

function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(entry.name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, entry.name, entry.data);
    centrals.push(central, entry.name);
    offset += local.length + entry.name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * An xlsx of the rows given, where the cell written as `'{large}'` holds `chars` letters A: the
 * workbook is ExcelJS's, only the part holding that cell is rewritten, streamed through deflate.
 */
export async function xlsxWithLargeCell(rows: string[][], chars: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Φύλλο1');
  for (const row of rows) sheet.addRow(row.map((cell) => (cell === '{large}' ? MARKER : cell)));
  const parts = unzipSync(new Uint8Array(await workbook.xlsx.writeBuffer()));
  const entries: Entry[] = [];
  for (const [name, bytes] of Object.entries(parts)) {
    const text = Buffer.from(bytes);
    const at = text.indexOf(MARKER);
    const chunks =
      at < 0 ? [text] : [text.subarray(0, at), ...repeated(chars), text.subarray(at + MARKER.length)];
    entries.push(await deflated(name, chunks));
  }
  return zip(entries);
}
