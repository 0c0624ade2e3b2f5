import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  elements,
  escapeXml,
  SERVICE_NS,
  SOAP12_NS,
  TYPES_NS,
  text,
} from '../modules/traders/registry-adapter.ts';

/**
 * A local stand-in for AADE's RgWsPublic2 (SOAP 1.2): a real HTTP server on 127.0.0.1 that checks
 * the WS-Security UsernameToken and answers as the published contract does: `basic_rec` and
 * `firm_act_tab` for a known taxpayer, `error_rec` for the other cases.
 */

export const FAKE_REGISTRY_USERNAME = 'DEYA0001';
export const FAKE_REGISTRY_PASSWORD = 'Mystiko-2026';

/** ΑΦΜ values (all with a valid check digit) and how the fake answers them. */
export const FAKE_AFM = {
  found: '094014201',
  /** Deactivated taxpayer (deactivation_flag 2). */
  deactivated: '094422282',
  notFound: '123456783',
  wrongAfm: '090000045',
  dailyLimit: '094019245',
  unavailable: '000000210',
} as const;

const ERROR_OF: Record<string, [string, string]> = {
  [FAKE_AFM.notFound]: [
    'RG_WS_PUBLIC_EPIT_NF',
    'Ο Α.Φ.Μ. για τον οποίο ζητούνται πληροφορίες δεν ανήκει και δεν ανήκε ποτέ σε νομικό πρόσωπο, νομική οντότητα, ή φυσικό πρόσωπο με εισόδημα από επιχειρηματική δραστηριότητα.',
  ],
  [FAKE_AFM.wrongAfm]: [
    'RG_WS_PUBLIC_WRONG_AFM',
    'Ο Α.Φ.Μ. για τον οποίο ζητούνται πληροφορίες δεν είναι έγκυρος.',
  ],
  [FAKE_AFM.dailyLimit]: [
    'RG_WS_PUBLIC_MAX_DAILY_USERNAME_CALLS_EXCEEDED',
    'Έχετε υπερβεί το μέγιστο επιτρεπτό όριο κλήσεων ανά ημέρα.',
  ],
  [FAKE_AFM.unavailable]: ['RG_WS_PUBLIC_SERVICE_NOT_ACTIVE', 'Η υπηρεσία δεν είναι ενεργή.'],
};

export interface FakeRegistry {
  url: string;
  /** The envelopes received, newest last. */
  requests: string[];
  close(): Promise<void>;
}

const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${SOAP12_NS}"><env:Header/><env:Body>${body}</env:Body></env:Envelope>`;

const fault = (code: 'env:Sender' | 'env:Receiver', reason: string) =>
  envelope(
    `<env:Fault><env:Code><env:Value>${code}</env:Value></env:Code><env:Reason><env:Text xml:lang="en">${escapeXml(reason)}</env:Text></env:Reason></env:Fault>`,
  );

const field = (name: string, value: string | null) =>
  value === null ? `<${name} xsi:nil="true"/>` : `<${name}>${escapeXml(value)}</${name}>`;

function result(calledBy: string, content: string) {
  return envelope(
    `<srvc:rgWsPublic2AfmMethodResponse xmlns:srvc="${SERVICE_NS}" xmlns="${TYPES_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><srvc:result><rg_ws_public2_result_rtType>` +
      `<call_seq_id>${Date.now()}</call_seq_id>` +
      `<afm_called_by_rec><token_username>${FAKE_REGISTRY_USERNAME}</token_username><token_afm>${calledBy}</token_afm><token_afm_fullname>ΔΕΥΑ ΔΟΚΙΜΗΣ</token_afm_fullname><afm_called_by>${calledBy}</afm_called_by><afm_called_by_fullname>ΔΕΥΑ ΔΟΚΙΜΗΣ</afm_called_by_fullname><as_on_date>2026-01-15T00:00:00Z</as_on_date></afm_called_by_rec>` +
      content +
      `</rg_ws_public2_result_rtType></srvc:result></srvc:rgWsPublic2AfmMethodResponse>`,
  );
}

function errorAnswer(calledBy: string, code: string, description: string) {
  return result(
    calledBy,
    `<error_rec><error_code>${code}</error_code><error_descr>${escapeXml(description)}</error_descr></error_rec>`,
  );
}

function taxpayer(calledBy: string, afm: string, deactivated: boolean) {
  const basic = [
    field('afm', afm),
    field('doy', '1159'),
    field('doy_descr', 'ΦΑΕ ΑΘΗΝΩΝ'),
    field('i_ni_flag_descr', 'ΜΗ ΦΠ'),
    field('deactivation_flag', deactivated ? '2' : '1'),
    field('deactivation_flag_descr', deactivated ? 'ΑΠΕΝΕΡΓΟΠΟΙΗΜΕΝΟΣ ΑΦΜ' : 'ΕΝΕΡΓΟΣ ΑΦΜ'),
    field('firm_flag_descr', 'ΕΠΙΤΗΔΕΥΜΑΤΙΑΣ'),
    field('onomasia', 'ΥΔΡΟΤΕΧΝΙΚΗ ΕΛΛΑΔΟΣ ΑΝΩΝΥΜΗ ΕΤΑΙΡΕΙΑ'),
    field('commer_title', 'ΥΔΡΟΤΕΧΝΙΚΗ Α.Ε.'),
    field('legal_status_descr', 'ΑΕ'),
    field('postal_address', 'ΠΑΝΕΠΙΣΤΗΜΙΟΥ'),
    field('postal_address_no', '39'),
    field('postal_zip_code', '10564'),
    field('postal_area_description', 'ΑΘΗΝΑ'),
    field('regist_date', '1998-03-12'),
    field('stop_date', deactivated ? '2020-12-31' : null),
    field('normal_vat_system_flag', 'Y'),
  ].join('');
  const act = (code: string, descr: string, kind: string, kindDescr: string) =>
    `<item><firm_act_code>${code}</firm_act_code><firm_act_descr>${escapeXml(descr)}</firm_act_descr><firm_act_kind>${kind}</firm_act_kind><firm_act_kind_descr>${kindDescr}</firm_act_kind_descr></item>`;
  return result(
    calledBy,
    `<error_rec><error_code xsi:nil="true"/><error_descr xsi:nil="true"/></error_rec><basic_rec>${basic}</basic_rec><firm_act_tab>` +
      act('46741000', 'ΧΟΝΔΡΙΚΟ ΕΜΠΟΡΙΟ ΕΙΔΩΝ ΥΔΡΑΥΛΙΚΩΝ', '2', 'ΔΕΥΤΕΡΕΥΟΥΣΑ') +
      act('42211000', 'ΚΑΤΑΣΚΕΥΑΣΤΙΚΕΣ ΕΡΓΑΣΙΕΣ ΓΙΑ ΑΓΩΓΟΥΣ ΥΔΡΕΥΣΗΣ', '1', 'ΚΥΡΙΑ') +
      '</firm_act_tab>',
  );
}

/** Answers one request body: status and envelope. */
function answer(contentType: string, body: string): [number, string] {
  if (!contentType.startsWith('application/soap+xml')) {
    return [415, fault('env:Sender', 'SOAP 1.2 expects application/soap+xml')];
  }
  const [security] = elements(body, 'Security');
  if (security === undefined || elements(body, 'rgWsPublic2AfmMethod').length === 0) {
    return [400, fault('env:Sender', 'Missing WS-Security header or rgWsPublic2AfmMethod')];
  }
  const calledBy = text(body, 'afm_called_by') ?? '090000045';
  if (
    text(security, 'Username') !== FAKE_REGISTRY_USERNAME ||
    text(security, 'Password') !== FAKE_REGISTRY_PASSWORD
  ) {
    return [
      200,
      errorAnswer(
        calledBy,
        'RG_WS_PUBLIC_TOKEN_USERNAME_NOT_AUTHENTICATED',
        'Ο συνδυασμός χρήστη/κωδικού πρόσβασης που δόθηκε δεν είναι έγκυρος.',
      ),
    ];
  }
  const calledFor = text(body, 'afm_called_for');
  if (!calledFor)
    return [200, errorAnswer(calledBy, 'RG_WS_PUBLIC_NO_INPUT_PARAMETERS', 'Δεν δόθηκαν παράμετροι.')];
  if (calledFor === FAKE_AFM.found || calledFor === FAKE_AFM.deactivated) {
    return [200, taxpayer(calledBy, calledFor, calledFor === FAKE_AFM.deactivated)];
  }
  const [code, description] = ERROR_OF[calledFor] ?? ERROR_OF[FAKE_AFM.notFound] ?? ['', ''];
  return [200, errorAnswer(calledBy, code, description)];
}

export async function startFakeRegistry(): Promise<FakeRegistry> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push(body);
      const [status, xml] =
        req.method === 'POST'
          ? answer(req.headers['content-type'] ?? '', body)
          : [405, fault('env:Sender', 'POST only')];
      res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8' });
      res.end(xml);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/wsaade/RgWsPublic2/RgWsPublic2`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
