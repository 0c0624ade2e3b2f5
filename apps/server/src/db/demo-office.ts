import { utilityDay } from '@protocol/contracts';
import { DEMO_OPERATORS } from './demo-operators.ts';
import type { Send } from './demo-water.ts';

/**
 * The demo company's office work in use, after its water service: three reports
 * of the public leak form, submitted as a citizen would (each registered in the incoming book with
 * its PDF, numbers from the book's counter) and moved along by the protocol clerk; three case folders
 * holding the demo's documents and a report's; and the accountant's invoices, retail receipt and
 * credit note of the day, issued and numbered by the finance documents' own routes. Like the water
 * service, all through the HTTP API; each part first looks whether it is there, so a restart adds
 * nothing.
 */

// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
type Json = any;
type Call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => Promise<Json>;

/** The leak reports and where the clerk takes each: left open, being repaired, resolved. */
const REPORTS = [
  {
    values: {
      kind: 'leak',
      location: 'Ερμού 40, Άνω Πόλη',
      description: 'Τρέχει νερό από το φρεάτιο στο πεζοδρόμιο από χθες το βράδυ.',
      fullname: 'Σοφία Λαμπράκη',
      mobile: '6912345678',
    },
    statuses: [],
  },
  {
    values: {
      kind: 'noWater',
      location: 'Αγίου Νικολάου 3, Άνω Πόλη',
      description: 'Δεν έχουμε νερό από το πρωί σε όλη την πολυκατοικία.',
      fullname: 'Ανδρέας Μαυρίδης',
      mobile: '6987654321',
    },
    // Confirmed, then in progress in the case of the Άνω Πόλη network.
    statuses: [1, 2],
    caseCode: 'network',
  },
  {
    values: {
      kind: 'meter',
      location: 'Ελευθερίου Βενιζέλου 27, Αγία Ελένη',
      consumerCode: '01-001-103',
      description: 'Το υδρόμετρο έχει θολώσει και δεν διαβάζεται.',
      fullname: 'Ευάγγελος Δημητρίου',
      mobile: '6944556677',
    },
    statuses: [2, 3],
  },
] as const;

/** The case folders and the demo documents (by subject) each holds. */
const CASES = [
  {
    key: 'network',
    name: 'Διαρροές δικτύου ύδρευσης Άνω Πόλης',
    agencies: 'Τεχνική υπηρεσία',
    subjects: ['Καταγγελία διαρροής στο δίκτυο ύδρευσης της Άνω Πόλης'],
    closed: false,
  },
  {
    key: 'connection',
    name: 'Νέα σύνδεση ύδρευσης, Ερμού 12',
    agencies: null,
    subjects: [
      'Αίτηση νέας σύνδεσης ύδρευσης για κατοικία στην οδό Ερμού 12',
      'Απάντηση σε αίτηση σύνδεσης ύδρευσης',
    ],
    closed: false,
  },
  {
    key: 'budget',
    name: 'Προϋπολογισμός και τιμολογιακή πολιτική 2026',
    agencies: 'Αποκεντρωμένη Διοίκηση Πελοποννήσου',
    subjects: [
      'Εγκύκλιος για την τιμολογιακή πολιτική των ΔΕΥΑ',
      'Διαβιβαστικό του προϋπολογισμού της επιχείρησης',
    ],
    closed: true,
  },
] as const;

/** The business the demo invoices name (a made-up ΑΦΜ with a valid check digit). */
const CUSTOMER = { fullname: 'Τεχνική Κατασκευαστική ΑΕ', vatnumber: '094014201' } as const;

async function signIn(send: Send, who: (typeof DEMO_OPERATORS)[number]): Promise<Call | null> {
  const login = await send({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: who.username, password: who.password },
  });
  if (login.status !== 200) return null;
  const headers = { authorization: `Bearer ${login.body.jwttoken}` };
  return async (method, url, payload) => {
    const response = await send({ method, url: `/api${url}`, payload, headers });
    if (response.status >= 300)
      throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
}

export async function seedDemoOffice(send: Send): Promise<void> {
  const [protocolClerk, , accountant] = DEMO_OPERATORS;
  const clerk = await signIn(send, protocolClerk);
  if (clerk) await casesAndSubmissions(send, clerk);
  const finance = await signIn(send, accountant);
  if (finance) await financeDocuments(finance);
}

/** The leak reports (submitted, then moved along) and the case folders they and the documents go in. */
async function casesAndSubmissions(send: Send, call: Call): Promise<void> {
  if ((await call('GET', '/cases/search?size=1')).totalElements > 0) return;
  if ((await call('GET', '/onlineForms/submissions/search?size=1')).totalElements > 0) return;
  const submitted: number[] = [];
  for (const report of REPORTS) {
    // As the public form sends it: no session, the citizen's address counted against its limit.
    const response = await send({
      method: 'POST',
      url: '/api/public/forms/dilosi-vlavis/submissions',
      payload: { values: report.values },
    });
    if (response.status !== 201)
      throw new Error(`leak report: ${response.status} ${JSON.stringify(response.body)}`);
    submitted.push(response.body.reference);
  }
  const rows = (await call('GET', '/onlineForms/submissions/search?size=-1')).content as Json[];
  const documents = (await call('GET', '/document/search?size=-1')).content as Json[];
  const caseIds = new Map<string, number>();
  for (const folder of CASES) {
    const documentIds = folder.subjects.flatMap((s) =>
      documents.filter((d) => d.subject === s).map((d) => d.id),
    );
    const created = await call('POST', '/cases', {
      name: folder.name,
      agencies: folder.agencies,
      documentIds,
    });
    caseIds.set(folder.key, created.id);
  }
  for (const [i, report] of REPORTS.entries()) {
    const id = rows.find((r) => r.reference === submitted[i])?.id;
    const caseId = 'caseCode' in report ? (caseIds.get(report.caseCode) ?? null) : null;
    for (const status of report.statuses) {
      const current = await call('GET', `/onlineForms/submissions/${id}`);
      await call('PUT', '/onlineForms/submissions', {
        id,
        values: current.values,
        status,
        assignedTo: current.assignedTo ?? null,
        caseId,
        comments: null,
      });
    }
    // The report's registered document joins its case folder too.
    if (caseId !== null) {
      const current = await call('GET', `/onlineForms/submissions/${id}`);
      if (current.documentId)
        await call('POST', `/cases/${caseId}/documents`, { documentIds: [current.documentId] });
    }
  }
  // A closed folder is closed once its documents are in.
  for (const folder of CASES.filter((c) => c.closed)) {
    const id = caseIds.get(folder.key);
    const current = await call('GET', `/cases/${id}`);
    await call('PUT', `/cases/${id}`, {
      code: current.code,
      name: current.name,
      agencies: current.agencies,
      comments: current.comments,
      closed: true,
    });
  }
}

/**
 * Today's documents of the accountant: a services invoice to a business, a second one credited in
 * full by a credit note, and a retail receipt; each issued (numbered) at once.
 */
async function financeDocuments(call: Call): Promise<void> {
  if ((await call('GET', '/finance/documents/search?size=1')).totalElements > 0) return;
  const series = (await call('GET', '/finance/series')) as Json[];
  const services = (await call('GET', '/finance/services')) as Json[];
  const seriesId = (code: string) => series.find((s) => s.code === code)?.id;
  const traders = (await call('GET', `/traders/search?size=-1`)).content as Json[];
  const customer =
    traders.find((t) => t.vatnumber === CUSTOMER.vatnumber) ??
    (await call('POST', '/traders', {
      individual: false,
      ...CUSTOMER,
      traderbanks: [],
      customFields: {},
    }));
  const date = utilityDay(new Date());
  const line = (code: string) => {
    const service = services.find((s) => s.code === code);
    return {
      serviceId: service?.id,
      itemId: null,
      warehouseId: null,
      descr: null,
      quantity: '1',
      price: service?.price,
      discount: '0',
      vatPercent: service?.vatPercent,
    };
  };
  const issue = (code: string, traderId: number | null, services: string[], paymentMethod: number) =>
    call('POST', '/finance/documents?finalize=true', {
      seriesId: seriesId(code),
      date,
      traderId,
      paymentMethod,
      status: 1,
      notes: null,
      lines: services.map(line),
      taxes: [],
    });
  await issue('ΤΠΥ', customer.id, ['ΥΠ01'], 5);
  const credited = await issue('ΤΠΥ', customer.id, ['ΥΠ03'], 5);
  const credit = await call('POST', `/finance/documents/${credited.id}/credit_note`, { date });
  await call('POST', `/finance/documents/${credit.id}/finalize`);
  await issue('ΑΛΠ', null, ['ΥΠ02'], 3);
}
