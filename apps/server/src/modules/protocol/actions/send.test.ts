import { documentActions as A } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail, startMailServer, type TestMailServer } from '../../../test/mail-server.ts';
import { act, createDocument, multipart, type ProtocolWorld, protocolWorld } from '../protocol-fixtures.ts';

/**
 * Send by e-mail (the send action with sendMethod 'email') through a real SMTP conversation with an
 * in-process server: receivers, subject, body, attachments; refusals leave the document unsent.
 */

/** Recipients the server refuses (RCPT TO answered 550). */
const REFUSED = 'bounce@example.test';
let mail: TestMailServer;
let w: ProtocolWorld;

beforeAll(async () => {
  mail = await startMailServer({ refuse: [REFUSED] });
  w = await protocolWorld({
    SMTP_URL: mail.url,
    MAIL_FROM: 'ΔΕΥΑ Δοκιμής <protocol@deya.test>',
  });
});
afterAll(async () => {
  await w?.t.close();
  await mail?.close();
});

const trader = async (fullname: string, email: string | null) => {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/traders?companyid=${w.companyA}`,
    headers: w.admin,
    payload: { individual: false, fullname, email },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
};
const registeredOutgoing = (receivers: number[], subject = 'Απάντηση για τη σύνδεση ύδρευσης') =>
  createDocument(w, { kind: 1, subject, receivers, protocolBookId: w.outBook });
const send = (id: number, comments?: string) =>
  act(w, { actionType: { id: A.send }, document: { id }, sendMethod: 'email', comments });
const document = async (id: number) =>
  (await w.t.app.inject({ method: 'GET', url: `/api/document/${id}`, headers: w.writer })).json();

describe('send by e-mail', () => {
  it('mails the document to every receiver with its files; the history names them', async () => {
    const first = await trader('Περιφέρεια Πελοποννήσου', 'protocol@peloponnisos.test');
    const second = await trader('Δήμος Τρίπολης', 'dimos@tripoli.test');
    const doc = await registeredOutgoing([first, second]);
    const body = multipart([
      {
        name: 'Απάντηση υπογεγραμμένη.pdf',
        content: Buffer.from('%PDF-1.4\n%%EOF\n'),
        type: 'application/pdf',
      },
    ]);
    const uploaded = await w.t.app.inject({
      method: 'POST',
      url: `/api/document/${doc.id}/attachments`,
      headers: { ...w.writer, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    const before = mail.received.length;
    const response = await send(doc.id, 'Παρακαλούμε για τις ενέργειές σας.');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().document.sendStatus).toBe(2);
    expect(mail.received).toHaveLength(before + 1);
    const message = mail.received.at(-1) as ReceivedMail;
    expect(message.from).toBe('protocol@deya.test');
    expect(message.to).toEqual(['protocol@peloponnisos.test', 'dimos@tripoli.test']);

    const email = message.parsed;
    expect(email.subject).toBe(`Αρ. πρωτ. ${doc.protocolId}: Απάντηση για τη σύνδεση ύδρευσης`);
    expect(email.from?.name).toBe('ΔΕΥΑ Δοκιμής');
    expect(email.text).toContain(`αριθμό πρωτοκόλλου ${doc.protocolId}`);
    expect(email.text).toContain('Παρακαλούμε για τις ενέργειές σας.');
    expect(email.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      ['Απάντηση υπογεγραμμένη.pdf', 'application/pdf'],
    ]);
    expect(Buffer.from(email.attachments[0]?.content as ArrayBuffer).toString()).toBe('%PDF-1.4\n%%EOF\n');

    const history = (
      await w.t.app.inject({ method: 'GET', url: `/api/document/${doc.id}/history`, headers: w.writer })
    ).json() as { action: string; changes: Record<string, { after: unknown }> }[];
    const line = history.find((h) => h.action === 'send');
    expect(line?.changes.sendMethod?.after).toBe('email');
    expect(line?.changes.sentTo?.after).toBe('protocol@peloponnisos.test, dimos@tripoli.test');
    expect(String(line?.changes.messageId?.after)).toMatch(/^<.+@.+>$/);
  });

  it('is written in the asker’s language', async () => {
    const doc = await registeredOutgoing([await trader('Water Board', 'board@water.test')], 'Reply');
    const response = await act(
      w,
      { actionType: { id: A.send }, document: { id: doc.id }, sendMethod: 'email' },
      { ...w.writer, 'accept-language': 'en' } as typeof w.writer,
    );
    expect(response.statusCode, response.body).toBe(200);
    const email = (mail.received.at(-1) as ReceivedMail).parsed;
    expect(email.subject).toBe(`Protocol no. ${doc.protocolId}: Reply`);
    expect(email.text).toContain('No attached files.');
  });

  it('refuses receivers without an e-mail, naming them, and sends nothing', async () => {
    const withMail = await trader('Με e-mail', 'yes@example.test');
    const without = await trader('Χωρίς e-mail Α.Ε.', null);
    const doc = await registeredOutgoing([withMail, without]);
    const before = mail.received.length;
    const response = await send(doc.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      key: 'error.document_send_no_email',
      params: { names: 'Χωρίς e-mail Α.Ε.' },
    });
    expect(response.json().message).toContain('Χωρίς e-mail Α.Ε.');
    expect(mail.received).toHaveLength(before);
    expect((await document(doc.id)).sendStatus).toBe(0);

    const none = await createDocument(w, { kind: 1, subject: 'Χωρίς παραλήπτες', protocolBookId: w.outBook });
    const refused = await send(none.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('error.document_send_no_receivers');
  });

  it('a message the server refuses is a 502 with its answer; the document stays unsent', async () => {
    const doc = await registeredOutgoing([await trader('Αναπάντητος', REFUSED)]);
    const response = await send(doc.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().key).toBe('error.mail_failed');
    expect(response.json().message).toMatch(/Mailbox unavailable/);
    const after = await document(doc.id);
    expect(after.sendStatus).toBe(0);
    expect(after.sentAt).toBeNull();
  });

  it('tells the web app that e-mail is available', async () => {
    const env = (await w.t.app.inject({ method: 'GET', url: '/api/installation/env' })).json();
    expect(env.mail).toEqual({ enabled: true });
  });
});
