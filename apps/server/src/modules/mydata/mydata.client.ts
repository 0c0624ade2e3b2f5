import { type AadeResponse, parseRequestedDoc, parseResponseDoc } from './mydata.response.ts';

/**
 * The myDATA REST calls with AADE's subscription headers. 429 and 5xx are retried with a growing
 * delay (AADE's Retry-After when it gives one); a call that times out throws `AadeTimeout`, since
 * AADE may or may not have taken it: the caller then reconciles before sending again.
 */

export interface AadeConnection {
  /** The environment's address, e.g. https://mydataapidev.aade.gr */
  url: string;
  userId: string;
  subscriptionKey: string;
  /** Per call; AADE answers in well under a second, so a minute means it is not answering. */
  timeoutMs?: number;
  /** Retries of a 429 or 5xx before giving up. */
  retries?: number;
  /** First back-off delay; doubled on each retry (the tests shorten it). */
  backoffMs?: number;
}

export class AadeTimeout extends Error {}
export class AadeUnavailable extends Error {
  constructor(readonly status: number) {
    super(`AADE answered ${status}`);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

async function call(
  conn: AadeConnection,
  action: string,
  init: { method: 'GET' | 'POST'; query?: Record<string, string>; body?: string },
  signal?: AbortSignal,
): Promise<string> {
  const target = new URL(`${conn.url.replace(/\/+$/, '')}/${action}`);
  for (const [key, value] of Object.entries(init.query ?? {})) target.searchParams.set(key, value);
  const retries = conn.retries ?? 5;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(target, {
        method: init.method,
        headers: {
          'aade-user-id': conn.userId,
          'Ocp-Apim-Subscription-Key': conn.subscriptionKey,
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/xml' }),
        },
        body: init.body,
        signal: AbortSignal.any([AbortSignal.timeout(conn.timeoutMs ?? 60_000), ...(signal ? [signal] : [])]),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
        throw new AadeTimeout(`${action} did not answer in time`);
      throw new AadeUnavailable(0);
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      if (attempt >= retries) throw new AadeUnavailable(response.status);
      const retryAfter = Number(response.headers.get('retry-after'));
      const backoff = (conn.backoffMs ?? 1000) * 2 ** attempt;
      await sleep(
        Number.isFinite(retryAfter) && retryAfter > 0 ? Math.max(retryAfter * 1000, backoff) : backoff,
        signal,
      );
      continue;
    }
    const text = await response.text();
    if (!response.ok) throw new AadeUnavailable(response.status);
    return text;
  }
}

export async function sendInvoices(
  conn: AadeConnection,
  xml: string,
  signal?: AbortSignal,
): Promise<AadeResponse[]> {
  return parseResponseDoc(await call(conn, 'SendInvoices', { method: 'POST', body: xml }, signal));
}

export async function cancelInvoice(
  conn: AadeConnection,
  mark: string,
  signal?: AbortSignal,
): Promise<AadeResponse> {
  const [answer] = parseResponseDoc(
    await call(conn, 'CancelInvoice', { method: 'POST', query: { mark } }, signal),
  );
  if (!answer) throw new AadeUnavailable(200);
  return answer;
}

/** What AADE holds after `mark`, page by page, until `found` says stop: the UID → MARK it found. */
export async function findTransmitted(
  conn: AadeConnection,
  afterMark: string,
  uids: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<Map<string, { mark: string; qrUrl: string | null }>> {
  const found = new Map<string, { mark: string; qrUrl: string | null }>();
  let from: string | null = afterMark;
  const query = (key: string): Record<string, string> => ({
    mark: afterMark,
    ...(key === afterMark ? {} : { nextPartitionKey: key, nextRowKey: key }),
  });
  while (from !== null && found.size < uids.size) {
    const page = parseRequestedDoc(
      await call(conn, 'RequestTransmittedDocs', { method: 'GET', query: query(from) }, signal),
    );
    for (const invoice of page.invoices) if (uids.has(invoice.uid)) found.set(invoice.uid, invoice);
    from = page.next;
  }
  return found;
}
