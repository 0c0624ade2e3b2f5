import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local smartville for tests: the REST contract of the README ("Smartville"), paged, with the
 * X-Api-Key header checked. It keeps the requests it answered so a test can see the paging.
 */
export interface FakeSmartvilleReading {
  id: string;
  meterSerial: string;
  takenAt: string;
  value: number | string;
}

export interface FakeSmartville {
  url: string;
  readings: FakeSmartvilleReading[];
  requests: URL[];
  close(): Promise<void>;
}

export async function startFakeSmartville(apiKey: string, pageSizeLimit = 2): Promise<FakeSmartville> {
  const readings: FakeSmartvilleReading[] = [];
  const requests: URL[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' || url.pathname !== '/v1/readings') return send(404, { error: 'not found' });
    if (request.headers['x-api-key'] !== apiKey) return send(401, { error: 'bad key' });
    requests.push(url);
    const since = Date.parse(url.searchParams.get('since') ?? '');
    if (Number.isNaN(since)) return send(400, { error: 'since' });
    const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
    // The service caps the page size: a client must follow nextPage, not trust its own pageSize.
    const size = Math.min(Number(url.searchParams.get('pageSize')) || 100, pageSizeLimit);
    const until = url.searchParams.has('until') ? Date.parse(url.searchParams.get('until') ?? '') : Infinity;
    const due = readings.filter((r) => Date.parse(r.takenAt) >= since && Date.parse(r.takenAt) <= until);
    const items = due.slice((page - 1) * size, page * size);
    send(200, {
      items,
      page,
      pageSize: size,
      total: due.length,
      nextPage: page * size < due.length ? page + 1 : null,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    readings,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
