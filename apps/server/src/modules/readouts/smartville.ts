import { type Language, periodDates, type SmartvilleSettings } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { type JobContext, jobAborted } from '../../platform/jobs/jobs.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { ImportLine } from './import.file.ts';
import { type ImportResult, importReadingLines } from './import.service.ts';
import { readoutSmartville } from './readouts.schema.ts';

/*
 * The smartville adapter (smart meters, spec §3 reading source 2). The REST contract it speaks
 * (README "Smartville"): GET {url}/v1/readings?since=<ISO>&until=<ISO>&page=<n>&pageSize=<n> with the
 * header X-Api-Key answers { items: [{ id, meterSerial, takenAt, value }], nextPage: n | null }.
 * A reading's idempotency key is its smartville id, so a second pull adds nothing.
 */

export const SMARTVILLE_JOB = 'readouts.smartville';
const PAGE_SIZE = 500;
const TIMEOUT_MS = 30_000;

export interface SmartvillePayload {
  companyId: number;
  year: number;
  period: number;
  months: number;
  username: string;
  language: Language;
}

interface SmartvillePage {
  items: { id: string | number; meterSerial: string; takenAt: string; value: number | string }[];
  nextPage: number | null;
}

// The job runs where the routes registered the installation's key (one per database).
const boxes = new WeakMap<Db, SecretBox>();
export const rememberSmartvilleBox = (db: Db, box: SecretBox) => boxes.set(db, box);

export async function readSmartville(db: Db | Tx, companyId: number): Promise<SmartvilleSettings> {
  const [row] = await db.select().from(readoutSmartville).where(eq(readoutSmartville.companyId, companyId));
  return { url: row?.url ?? null, hasKey: Boolean(row?.apiKey) };
}

export async function saveSmartville(
  db: Db,
  box: SecretBox,
  username: string,
  companyId: number,
  input: { url: string; apiKey?: string | null | undefined },
): Promise<SmartvilleSettings> {
  const [row] = await db.select().from(readoutSmartville).where(eq(readoutSmartville.companyId, companyId));
  const apiKey = input.apiKey ? box.seal(input.apiKey) : row?.apiKey;
  if (!apiKey) throw badRequest([{ field: 'apiKey', key: 'validation.required', params: {} }]);
  await db
    .insert(readoutSmartville)
    .values({ companyId, url: input.url, apiKey, createuser: username })
    .onConflictDoUpdate({
      target: readoutSmartville.companyId,
      set: { url: input.url, apiKey, ...updatedBy(username) },
    });
  return readSmartville(db, companyId);
}

async function fetchPage(
  url: string,
  apiKey: string,
  span: { since: string; until: string },
  page: number,
  signal: AbortSignal,
) {
  const address = new URL(`${url.replace(/\/+$/, '')}/v1/readings`);
  address.search = new URLSearchParams({
    ...span,
    page: String(page),
    pageSize: String(PAGE_SIZE),
  }).toString();
  let response: Response;
  try {
    response = await fetch(address, {
      headers: { 'x-api-key': apiKey, accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
    });
  } catch {
    throw new AppError(502, 'readouts.smartville.unreachable');
  }
  if (response.status === 401 || response.status === 403)
    throw new AppError(502, 'readouts.smartville.key_refused');
  if (!response.ok) throw new AppError(502, 'readouts.smartville.failed', { status: response.status });
  const body = (await response.json().catch(() => null)) as SmartvillePage | null;
  if (!body || !Array.isArray(body.items))
    throw new AppError(502, 'readouts.smartville.failed', { status: response.status });
  return body;
}

/**
 * The pull job: every smartville reading taken within the period, page by page, saved like a
 * drive-by file's lines (by meter serial) with the per-line report; line numbers count across pages.
 * A refusal (AppError) is kept as the job's error, its key and params (the worker's jobFailure).
 */
export async function smartvilleJob(context: JobContext<SmartvillePayload>): Promise<ImportResult> {
  const { db, payload, signal, job } = context;
  const box = boxes.get(db);
  const [settings] = await db
    .select()
    .from(readoutSmartville)
    .where(eq(readoutSmartville.companyId, payload.companyId));
  if (!box || !settings) throw new AppError(400, 'readouts.smartville.not_configured');
  const apiKey = box.open(settings.apiKey);
  const { fromDate, toDate } = periodDates(payload.year, payload.period, payload.months);
  // The period's days, its last one whole; a service that ignores `until` is held to it here.
  const span = { since: `${fromDate}T00:00:00Z`, until: `${toDate}T23:59:59Z` };
  const end = Date.parse(span.until);
  const lines: ImportLine[] = [];
  const ids = new Map<number, string>();
  for (let page: number | null = 1; page !== null; ) {
    if (signal.aborted) throw jobAborted();
    const body = await fetchPage(settings.url, apiKey, span, page, signal);
    for (const item of body.items) {
      if (Date.parse(String(item.takenAt)) > end) continue;
      const line = lines.length + 1;
      ids.set(line, String(item.id));
      lines.push({
        line,
        code: '',
        serial: String(item.meterSerial ?? ''),
        reading: String(item.value ?? ''),
        readOn: String(item.takenAt ?? ''),
        note: '',
      });
    }
    page = body.nextPage && body.nextPage > page ? body.nextPage : null;
  }
  return importReadingLines(
    context,
    { ...payload, source: 2 },
    `smartville-${job.id}`,
    lines,
    (line) => `sv:${ids.get(line.line)}`,
    'readouts.smartville.already',
  );
}
