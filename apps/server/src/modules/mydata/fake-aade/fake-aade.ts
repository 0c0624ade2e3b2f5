import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AadeError } from '@protocol/contracts';
import { INVOICE_NS, readXml, requestedDocXml, responseDocXml } from '../mydata.response.ts';
import { invoiceUid } from '../mydata.xml.ts';
import { validateXml } from '../mydata.xsd.ts';

/**
 * A local AADE for tests, the bench and demos: a real HTTP server on 127.0.0.1 speaking the myDATA
 * REST contract (SendInvoices, CancelInvoice, RequestTransmittedDocs). It checks the subscription
 * headers, validates what it receives against the same XSD, gives MARKs and UIDs, refuses a UID it
 * already holds, and can be told to answer errors, 429, 500 or to time out. Nothing in the product
 * depends on it: the company's settings name the address.
 */

export const FAKE_AADE_USER = 'deya-mydata';
export const FAKE_AADE_KEY = 'fake-subscription-key-0001';

/** What the next calls of an action do instead of answering normally. */
export type FakeFault =
  | 'rateLimited'
  | 'serverError'
  /** Never answers (the client's timeout ends the call); nothing is stored. */
  | 'hang'
  /** Stores the invoices, then never answers: the case reconciliation exists for. */
  | 'hangAfterStore';

type Action = 'SendInvoices' | 'CancelInvoice' | 'RequestTransmittedDocs';

export interface FakeInvoice {
  uid: string;
  mark: string;
  qrUrl: string;
  cancellationMark: string | null;
}

export interface FakeAade {
  url: string;
  /** Invoices held, by UID. */
  invoices: Map<string, FakeInvoice>;
  /** Every call received, in order. */
  calls: { action: string; status: number }[];
  /** The next `times` calls of `action` fail with `fault`. */
  fail(action: Action, fault: FakeFault, times?: number): void;
  /** Invoices to this counterpart ΑΦΜ are refused with AADE's error. */
  rejectCounterpart(vatNumber: string, error: AadeError): void;
  reset(): void;
  close(): Promise<void>;
}

const PAGE = 100;

export async function startFakeAade(options: { port?: number; host?: string } = {}): Promise<FakeAade> {
  const invoices = new Map<string, FakeInvoice>();
  const byMark = new Map<string, FakeInvoice>();
  const calls: FakeAade['calls'] = [];
  const faults: { action: Action; fault: FakeFault }[] = [];
  const rejected = new Map<string, AadeError>();
  const hanging = new Set<ServerResponse>();
  let lastMark = 400_001_000_000_000;
  const nextMark = () => String(++lastMark);
  let url = '';

  const send = (res: ServerResponse, action: string, status: number, body: string) => {
    calls.push({ action, status });
    res.writeHead(status, { 'Content-Type': 'application/xml; charset=utf-8' });
    res.end(body);
  };

  function store(xml: string) {
    return readXml(xml, (doc) =>
      doc.find('/i:InvoicesDoc/i:invoice', { i: INVOICE_NS }).map((inv, at) => {
        const get = (path: string) => inv.get(path, { i: INVOICE_NS })?.content.trim() ?? '';
        const uid = invoiceUid({
          issuer: { vatNumber: get('i:issuer/i:vatNumber'), branch: Number(get('i:issuer/i:branch')) },
          issueDate: get('i:invoiceHeader/i:issueDate'),
          invoiceType: get('i:invoiceHeader/i:invoiceType'),
          series: get('i:invoiceHeader/i:series'),
          aa: get('i:invoiceHeader/i:aa'),
        });
        const base = {
          index: at + 1,
          invoiceUid: null,
          invoiceMark: null,
          cancellationMark: null,
          qrUrl: null,
        };
        const refusal = rejected.get(get('i:counterpart/i:vatNumber'));
        if (refusal) return { ...base, statusCode: 'ValidationError', errors: [refusal] };
        if (invoices.has(uid))
          return {
            ...base,
            statusCode: 'ValidationError',
            errors: [{ code: '228', message: `Duplicate invoice: uid ${uid} is already registered` }],
          };
        const invoice: FakeInvoice = {
          uid,
          mark: nextMark(),
          qrUrl: `${url}/TimologioQR/QRInfo?q=${randomBytes(24).toString('base64url')}`,
          cancellationMark: null,
        };
        invoices.set(uid, invoice);
        byMark.set(invoice.mark, invoice);
        return {
          ...base,
          statusCode: 'Success',
          errors: [],
          invoiceUid: uid,
          invoiceMark: invoice.mark,
          qrUrl: invoice.qrUrl,
        };
      }),
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const target = new URL(req.url ?? '/', 'http://fake');
    const action = target.pathname.split('/').pop() ?? '';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (
      req.headers['aade-user-id'] !== FAKE_AADE_USER ||
      req.headers['ocp-apim-subscription-key'] !== FAKE_AADE_KEY
    )
      return send(
        res,
        action,
        401,
        '{"statusCode":401,"message":"Access denied due to invalid subscription key."}',
      );
    const faultAt = faults.findIndex((f) => f.action === action);
    const fault = faultAt >= 0 ? faults.splice(faultAt, 1)[0]?.fault : undefined;
    if (fault === 'rateLimited') {
      res.setHeader('Retry-After', '1');
      return send(res, action, 429, '{"statusCode":429,"message":"Rate limit is exceeded."}');
    }
    if (fault === 'serverError') return send(res, action, 500, 'Internal Server Error');
    if (fault === 'hang') {
      calls.push({ action, status: 0 });
      hanging.add(res);
      return;
    }
    if (action === 'SendInvoices' && req.method === 'POST') {
      const problems = validateXml(body);
      if (problems.length > 0)
        return send(
          res,
          action,
          200,
          responseDocXml([
            {
              index: 1,
              statusCode: 'XMLSyntaxError',
              invoiceUid: null,
              invoiceMark: null,
              cancellationMark: null,
              qrUrl: null,
              errors: problems.slice(0, 5).map((p) => ({ code: '101', message: p.message })),
            },
          ]),
        );
      const responses = store(body);
      if (fault === 'hangAfterStore') {
        calls.push({ action, status: 0 });
        hanging.add(res);
        return;
      }
      return send(res, action, 200, responseDocXml(responses));
    }
    if (action === 'CancelInvoice' && req.method === 'POST') {
      const invoice = byMark.get(target.searchParams.get('mark') ?? '');
      const base = { index: 1, invoiceUid: null, invoiceMark: null, qrUrl: null };
      if (!invoice || invoice.cancellationMark)
        return send(
          res,
          action,
          200,
          responseDocXml([
            {
              ...base,
              cancellationMark: null,
              statusCode: 'ValidationError',
              errors: [
                { code: '256', message: invoice ? 'The invoice is already cancelled' : 'Invoice not found' },
              ],
            },
          ]),
        );
      invoice.cancellationMark = nextMark();
      return send(
        res,
        action,
        200,
        responseDocXml([
          { ...base, cancellationMark: invoice.cancellationMark, statusCode: 'Success', errors: [] },
        ]),
      );
    }
    if (action === 'RequestTransmittedDocs' && req.method === 'GET') {
      const from = Number(
        target.searchParams.get('nextPartitionKey') ?? target.searchParams.get('mark') ?? 0,
      );
      const after = [...byMark.values()].filter((i) => Number(i.mark) > from);
      const page = after.slice(0, PAGE);
      const next = after.length > PAGE ? (page.at(-1)?.mark ?? null) : null;
      return send(res, action, 200, requestedDocXml({ invoices: page, next }));
    }
    return send(res, action, 404, 'Not Found');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 'error', 500, 'Internal Server Error'));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    invoices,
    calls,
    fail(action, fault, times = 1) {
      for (let i = 0; i < times; i++) faults.push({ action, fault });
    },
    rejectCounterpart(vatNumber, error) {
      rejected.set(vatNumber, error);
    },
    reset() {
      faults.length = 0;
      rejected.clear();
      calls.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
