import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, COMPANY_HEADER, setCompanyInUse, withCompanyParam } from '../lib/api.ts';
import { fetchFile } from '../lib/files.ts';
import { createQueryClient } from './providers.tsx';

/** The headers of each fetch the code under test made. */
let sent: Record<string, string>[] = [];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('window', { location: { pathname: '/en/traders' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: { headers: Record<string, string> }) => {
      sent.push(init.headers);
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  setCompanyInUse(null);
  vi.unstubAllGlobals();
});

describe('the company in use on every request (issue 30 item 1)', () => {
  it('is sent as X-Company-Id by the JSON client and the file client, and not at all when there is none', async () => {
    setCompanyInUse(2);
    await api.get('/api/traders/search');
    await api.post('/api/traders', {});
    await fetchFile('/api/settlements/1/pdf');
    expect(sent.map((headers) => headers[COMPANY_HEADER])).toEqual(['2', '2', '2']);

    setCompanyInUse(null);
    await api.get('/api/users/authenticatedUser');
    expect(sent[3]).not.toHaveProperty(COMPANY_HEADER);
  });

  it('a call may name another company (a reading queued offline under it)', async () => {
    setCompanyInUse(2);
    await api.post('/api/readouts/readings', {}, { companyId: 5 });
    expect(sent[0]?.[COMPANY_HEADER]).toBe('5');
  });

  it('an address opened without fetch carries it as ?companyid=', () => {
    setCompanyInUse(3);
    expect(withCompanyParam('/api/traders/search')).toBe('/api/traders/search?companyid=3');
    expect(withCompanyParam('/api/traders/search?sort=name')).toBe(
      '/api/traders/search?sort=name&companyid=3',
    );
    setCompanyInUse(null);
    expect(withCompanyParam('/api/traders/search')).toBe('/api/traders/search');
  });
});

/** A promise and the function that settles it. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('the query cache is per company in one place', () => {
  const key = ['list', '/api/traders/search', 'page=0'];

  it('the same key is a different entry per company: a switch refetches, switching back is served from the cache', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'asked again');
    setCompanyInUse(1);
    await client.fetchQuery({ queryKey: key, queryFn: async () => 'rows of 1' });
    const hashOf1 = client.getQueryCache().find({ queryKey: key })?.queryHash;

    setCompanyInUse(2);
    expect(client.getQueryData(key)).toBeUndefined();
    await client.fetchQuery({ queryKey: key, queryFn: async () => 'rows of 2' });
    expect(client.getQueryData(key)).toBe('rows of 2');

    setCompanyInUse(1);
    expect(client.getQueryData(key)).toBe('rows of 1');
    // Fresh for company 1: no new request.
    expect(await client.fetchQuery({ queryKey: key, queryFn })).toBe('rows of 1');
    expect(queryFn).not.toHaveBeenCalled();

    const hashes = client
      .getQueryCache()
      .findAll({ queryKey: key })
      .map((query) => query.queryHash);
    expect(hashes).toHaveLength(2);
    expect(new Set(hashes).size).toBe(2);
    expect(hashes).toContain(hashOf1);
  });

  it('an answer still on its way when the company changes lands under the company it was asked for', async () => {
    const client = createQueryClient();
    const answer = deferred<string>();
    setCompanyInUse(1);
    const asked = client.fetchQuery({ queryKey: key, queryFn: () => answer.promise });
    setCompanyInUse(2);
    answer.resolve('rows of 1');
    await asked;
    expect(client.getQueryData(key)).toBeUndefined();
    setCompanyInUse(1);
    expect(client.getQueryData(key)).toBe('rows of 1');
  });

  it('filters reach every company’s copy; the signed-in user is one entry whatever the company', async () => {
    const client = createQueryClient();
    for (const company of [1, 2]) {
      setCompanyInUse(company);
      await client.fetchQuery({ queryKey: key, queryFn: async () => `rows of ${company}` });
    }
    await client.invalidateQueries({ queryKey: ['list'] });
    expect(client.getQueryCache().findAll({ queryKey: key, stale: true })).toHaveLength(2);

    setCompanyInUse(null);
    client.setQueryData(['session', 'user', 'token'], { id: 1 });
    setCompanyInUse(2);
    expect(client.getQueryData(['session', 'user', 'token'])).toEqual({ id: 1 });
  });
});
