import { billRfCode, type ComputedBill, PERIOD_CHARGE_KIND } from '@protocol/contracts';
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Tx } from '../../db/client.ts';
import { CopyBytes, copyConnection, copyField, copyInto } from '../../db/copy.ts';
import { billingBillLines, billingBills } from './billing.schema.ts';
import { billValues, lineRow } from './bills.service.ts';
import type { ComputedRunBill } from './runs.compute.ts';

/**
 * Rows as ONE parameter: `SELECT … FROM json_to_recordset($1)`, keyed by the rows' own property names
 * and typed by the table's columns. A run writes thousands of bills and lines a transaction; as
 * multi-row VALUES each cell would be a bound parameter the query builder walks and PostgreSQL parses
 * (13 a line, 65,535 at most a statement). The rows are serialised as they are (no copy renamed to the
 * column names), and as json, not jsonb: read once, the text need not be converted to jsonb first.
 * `rows` may be that JSON already.
 */
function recordset<T extends PgTable>(
  table: T,
  keys: (keyof T['_']['columns'] & string)[],
  rows: object[] | string,
) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const typed = keys.map((key) => {
    const column = columns[key] as PgColumn;
    return { key, name: column.name, type: column.getSQLType().replace(/^serial$/, 'integer') };
  });
  return {
    names: sql.raw(typed.map((c) => `"${c.name}"`).join(', ')),
    values: sql.raw(typed.map((c) => `x."${c.key}"`).join(', ')),
    from: sql`json_to_recordset(${typeof rows === 'string' ? rows : JSON.stringify(rows)}::json) AS x(${sql.raw(typed.map((c) => `"${c.key}" ${c.type}`).join(', '))})`,
  };
}

/** The computed columns of a new bill, the last of `NEW_BILL_COLUMNS`. */
const COMPUTED_COLUMNS = [
  'consumption',
  'billedConsumption',
  'net',
  'vatTotal',
  'previousBalance',
  'total',
  'vatBreakdown',
] as const satisfies (keyof ReturnType<typeof billValues>)[];
/** A bill's period and readings columns, as computed for it. */
const READINGS_COLUMNS = [
  'periodTo',
  'periodLabel',
  'issueDate',
  'dueDate',
  'previousReading',
  'previousDate',
  'currentReading',
  'currentDate',
] as const;

/** What a rerun recomputes of a bill in place; its id, RF code, number and creation stay. */
const RECOMPUTED = [...READINGS_COLUMNS, ...COMPUTED_COLUMNS, 'runId'] as const;

/**
 * Stores a chunk's bills in the caller's transaction with a few statements whatever its size: new
 * bills (none of the period when the chunk read them) copied (PostgreSQL) with the ids `computeChunk`
 * reserved and their RF codes; the others upserted (a new one as the copied ones, on PGlite; an open
 * one recomputed in place; a finalized one, or a corrected bill of the period, left alone); the old
 * lines of recomputed ones deleted and the new lines inserted. A bill another writer stored for the
 * period since the chunk read it makes the copy fail on the unique index: the chunk's transaction
 * fails whole, and the job's next attempt recomputes that bill in place.
 */
export async function storeChunk(
  tx: Tx,
  username: string,
  companyId: number,
  runId: number,
  bills: ComputedRunBill[],
) {
  if (bills.length === 0) return;
  const copy = copyConnection(tx);
  const copied = copy ? bills.filter((b) => !b.stored) : [];
  if (copy && copied.length > 0) await copyBills(copy, username, companyId, runId, copied);
  const upserted = copy ? bills.filter((b) => b.stored) : bills;
  const idOf = new Map(copied.map((b) => [b.consumerId, b.reservedId as number]));
  for (const [consumerId, id] of await upsertBills(tx, username, companyId, runId, upserted)) {
    idOf.set(consumerId, id);
  }
  const written = bills.flatMap((b) => {
    const billId = idOf.get(b.consumerId);
    return billId === undefined ? [] : [{ billId, bill: b.bill }];
  });
  if (copy) await copyLines(copy, written);
  else await insertLines(tx, written);
}

/**
 * Bills upserted from one JSON parameter; the old lines of the recomputed ones deleted. Answers the
 * stored bills' ids by consumer (a finalized bill, left alone, is not among them).
 */
async function upsertBills(
  tx: Tx,
  username: string,
  companyId: number,
  runId: number,
  bills: ComputedRunBill[],
) {
  if (bills.length === 0) return new Map<number, number>();
  // Assigned, not spread: V8 gives an object spread this wide slow properties, and serialising
  // 100,000 of them took most of a run's own CPU.
  const rows = bills.map((b) =>
    Object.assign(billValues(b.bill, b.expiredays, b.period, b.readings), {
      id: b.reservedId,
      rfCode: billRfCode(companyId, b.reservedId as number),
      companyId,
      consumerId: b.consumerId,
      periodFrom: b.period.from,
      kind: PERIOD_CHARGE_KIND,
      entryState: 0,
      runId,
      createuser: username,
    }),
  );
  const bill = recordset(billingBills, Object.keys(rows[0] as object) as never[], rows);
  const set = sql.raw(
    [
      ...RECOMPUTED.map((key) => `"${billingBills[key].name}" = excluded."${billingBills[key].name}"`),
      'entry_state = 1',
      'updatedate = now()',
    ].join(', '),
  );
  // `xmax = 0`: the row was inserted, not updated, so it has no old lines to delete.
  const stored = await tx.execute<{ id: number; consumer_id: number; inserted: boolean }>(
    sql`INSERT INTO billing_bills (${bill.names}) SELECT ${bill.values} FROM ${bill.from}
        ON CONFLICT (consumer_id, period_from, kind) WHERE replaces_id IS NULL
        DO UPDATE SET ${set}, updateuser = ${username}
        WHERE billing_bills.entry_state IN (0, 1)
        RETURNING id, consumer_id, (xmax = 0) AS inserted`,
  );
  const rowsStored = (stored as unknown as { rows: { id: number; consumer_id: number; inserted: boolean }[] })
    .rows;
  const recomputed = rowsStored.filter((s) => !s.inserted).map((s) => s.id);
  if (recomputed.length > 0) {
    await tx.execute(
      sql`DELETE FROM billing_bill_lines WHERE bill_id = ANY(${`{${recomputed.join(',')}}`}::int[])`,
    );
  }
  return new Map(rowsStored.map((s) => [s.consumer_id, s.id]));
}

/** New bills' columns as `copyBills` writes them, in order: the bill's own, its readings', its computed. */
const NEW_BILL_COLUMNS = [
  'id',
  'rfCode',
  'companyId',
  'consumerId',
  'periodFrom',
  'kind',
  'entryState',
  'runId',
  'createuser',
  ...READINGS_COLUMNS,
  ...COMPUTED_COLUMNS,
] as const satisfies (keyof typeof billingBills._.columns)[];

/** The computed columns of a bill and the row's end as COPY bytes, made once per computed bill (shared, `computeOnce`). */
const computedOfBill = new WeakMap<ComputedBill, Buffer>();
function computedBytes(b: ComputedRunBill) {
  let bytes = computedOfBill.get(b.bill);
  if (bytes === undefined) {
    const values = billValues(b.bill, b.expiredays, b.period, b.readings);
    bytes = CopyBytes.encode(
      `${COMPUTED_COLUMNS.map(
        (key) => `\t${copyField(key === 'vatBreakdown' ? JSON.stringify(values[key]) : values[key])}`,
      ).join('')}\n`,
    );
    computedOfBill.set(b.bill, bytes);
  }
  return bytes;
}

/**
 * New bills with COPY (PostgreSQL), which PostgreSQL reads several times faster than the JSON of the
 * upsert. A run's bills share their run, dates and most computed values: those are encoded once, and
 * a bill's own fields (ids, RF code, readings: numbers and dates) are ASCII.
 */
async function copyBills(
  client: pg.ClientBase,
  username: string,
  companyId: number,
  runId: number,
  bills: ComputedRunBill[],
) {
  const own = `\t${companyId}`;
  const run = CopyBytes.encode(`\t${PERIOD_CHARGE_KIND}\t0\t${runId}\t${copyField(username)}`);
  const dated = new Map<string, Buffer>();
  const bytes = new CopyBytes();
  for (const b of bills) {
    const id = b.reservedId as number;
    const { readings } = b;
    const key = `${b.period.to}|${readings.periodLabel}|${readings.issueDate}|${b.expiredays}`;
    let dates = dated.get(key);
    if (dates === undefined) {
      const values = billValues(b.bill, b.expiredays, b.period, readings);
      dates = CopyBytes.encode(
        `\t${values.periodTo}\t${copyField(values.periodLabel)}\t${values.issueDate}\t${values.dueDate}`,
      );
      dated.set(key, dates);
    }
    bytes
      .ascii(`${id}\t${billRfCode(companyId, id)}${own}\t${b.consumerId}\t${b.period.from}`)
      .bytes(run)
      .bytes(dates)
      .ascii(
        `\t${copyField(readings.previousReading)}\t${copyField(readings.previousDate)}\t${copyField(readings.currentReading)}\t${copyField(readings.currentDate)}`,
      )
      .bytes(computedBytes(b));
  }
  await copyInto(
    client,
    'billing_bills',
    NEW_BILL_COLUMNS.map((key) => billingBills[key].name),
    bytes.view(),
    companyId,
  );
}

/** The lines of stored bills as one INSERT of a JSON parameter (PGlite, which has no COPY stream). */
export async function insertLines(tx: Tx, stored: { billId: number; bill: ComputedBill }[]) {
  const lines = stored.flatMap(({ billId, bill }) =>
    linesJson(bill).map((line) => `{"billId":${billId},${line}`),
  );
  if (lines.length === 0) return;
  const line = recordset(billingBillLines, LINE_KEYS, `[${lines.join(',')}]`);
  await tx.execute(
    sql`INSERT INTO billing_bill_lines (${line.names}) SELECT ${line.values} FROM ${line.from}`,
  );
}

/**
 * The lines of stored bills with COPY (PostgreSQL): about a million lines at 100,000 consumers, which
 * PostgreSQL reads several times faster as COPY text than as the JSON of `insertLines`.
 */
export async function copyLines(client: pg.ClientBase, stored: { billId: number; bill: ComputedBill }[]) {
  const bytes = new CopyBytes();
  for (const { billId, bill } of stored) {
    const id = String(billId);
    for (const line of linesBytes(bill)) bytes.ascii(id).bytes(line);
  }
  if (bytes.empty) return;
  await copyInto(client, 'billing_bill_lines', LINE_COLUMNS, bytes.view());
}

const LINE_KEYS = Object.keys(
  lineRow(0, 1, {
    charge: 'water',
    description: '',
    band: null,
    from: null,
    to: null,
    target: null,
    quantity: null,
    price: null,
    amount: '0',
    vatPercent: '0',
    sourceId: null,
  }),
) as (keyof typeof billingBillLines._.columns & string)[];

const LINE_COLUMNS = LINE_KEYS.map((key) => billingBillLines[key].name);

/**
 * A bill's lines but their bill's id, made once per computed bill: a run shares one bill among the
 * consumers it fits (`computeOnce`), and writes its lines for each. As JSON (`"position":1,…}`) for
 * `insertLines`, as COPY bytes (`\t1\twater\t…\n`) for `copyLines`.
 */
const linesOfBill = new WeakMap<ComputedBill, string[]>();
function linesJson(bill: ComputedBill) {
  let lines = linesOfBill.get(bill);
  if (!lines) {
    lines = bill.lines.map((line, i) => {
      const { billId: _, ...row } = lineRow(0, i + 1, line);
      return JSON.stringify(row).slice(1);
    });
    linesOfBill.set(bill, lines);
  }
  return lines;
}
const bytesOfBill = new WeakMap<ComputedBill, Buffer[]>();
function linesBytes(bill: ComputedBill) {
  let lines = bytesOfBill.get(bill);
  if (!lines) {
    lines = bill.lines.map((line, i) => {
      const row = lineRow(0, i + 1, line);
      return CopyBytes.encode(
        `${LINE_KEYS.slice(1)
          .map((key) => `\t${copyField(row[key as keyof typeof row])}`)
          .join('')}\n`,
      );
    });
    bytesOfBill.set(bill, lines);
  }
  return lines;
}
