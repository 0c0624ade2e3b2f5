import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendInline } from './reply.ts';

describe('sendInline', () => {
  it('answers a print in memory or a stored one inline, under its name', async () => {
    const app = Fastify();
    app.get('/memory', async (_request, reply) =>
      sendInline(reply, { fileName: 'bill-7.pdf', buffer: Buffer.from('%PDF-1') }),
    );
    app.get('/stored', async (_request, reply) =>
      sendInline(reply, {
        fileName: 'bills-3.pdf',
        stream: Readable.from([Buffer.from('%PDF-12')]),
        size: 7,
      }),
    );
    app.get('/sheet', async (_request, reply) =>
      sendInline(reply, { fileName: 'statement.xlsx', buffer: Buffer.from('PK') }, 'application/x-test'),
    );
    const memory = await app.inject({ url: '/memory' });
    expect(memory.headers['content-type']).toBe('application/pdf');
    expect(memory.headers['content-disposition']).toBe('inline; filename="bill-7.pdf"');
    expect(memory.body).toBe('%PDF-1');
    const stored = await app.inject({ url: '/stored' });
    expect(stored.headers['content-length']).toBe('7');
    expect(stored.headers['content-disposition']).toBe('inline; filename="bills-3.pdf"');
    expect(stored.body).toBe('%PDF-12');
    const sheet = await app.inject({ url: '/sheet' });
    expect(sheet.headers['content-type']).toBe('application/x-test');
    expect(sheet.headers['content-disposition']).toBe('inline; filename="statement.xlsx"');
    await app.close();
  });
});
