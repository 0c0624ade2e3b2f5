import {
  BOOK_TYPE_OF_KIND,
  effectiveScope,
  type SaveDocumentRequest,
  saveDocumentSchema,
} from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { documentTypes, subjectCategories } from '../protocol.schema.ts';
import { protocolDay, protocolYearOf } from './documents.common.ts';
import { createDocument } from './documents.service.ts';

const DEMO_TRADERS: {
  fullname: string;
  individual: boolean;
  lastname?: string;
  firstname?: string;
  email?: string;
}[] = [
  {
    fullname: 'Παπαδόπουλος Ιωάννης',
    individual: true,
    lastname: 'Παπαδόπουλος',
    firstname: 'Ιωάννης',
    email: 'i.papadopoulos@example.gr',
  },
  { fullname: 'Κωνσταντίνου Ελένη', individual: true, lastname: 'Κωνσταντίνου', firstname: 'Ελένη' },
  { fullname: 'Υπουργείο Εσωτερικών', individual: false, email: 'protocol@ypes-example.gr' },
  { fullname: 'Αποκεντρωμένη Διοίκηση Πελοποννήσου', individual: false },
];

/**
 * Demo documents of the demo utility, registered through the documents service in this year's
 * books (created when missing), with the demo traders (created when missing) as correspondents.
 */
export async function seedDemoDocuments(
  tx: Tx,
  companyId: number,
  admin: { userId: number; username: string },
  chargeTo: number | undefined,
): Promise<void> {
  const now = new Date();
  const year = protocolYearOf(now);
  // This year's books; an inactive one stays so and its documents stay unregistered drafts.
  const books: Record<1 | 2, number | null> = { 1: null, 2: null };
  for (const booktype of [1, 2] as const) {
    const [existing] = await tx
      .select({ id: protocolBooks.id, isActive: protocolBooks.isActive })
      .from(protocolBooks)
      .where(
        and(
          eq(protocolBooks.companyId, companyId),
          eq(protocolBooks.booktype, booktype),
          eq(protocolBooks.year, year),
        ),
      );
    const book =
      existing ??
      (
        await tx
          .insert(protocolBooks)
          .values({
            companyId,
            booktype,
            year,
            descr: `${booktype === 1 ? 'Εισερχόμενα' : 'Εξερχόμενα'} ${year}`,
            createuser: 'system',
          })
          .returning({ id: protocolBooks.id, isActive: protocolBooks.isActive })
      )[0];
    if (!book) throw new Error('demo book not created');
    books[booktype] = book.isActive ? book.id : null;
  }

  const traderIds = new Map<string, number>();
  for (const demo of DEMO_TRADERS) {
    const [existing] = await tx
      .select({ id: traders.id })
      .from(traders)
      .where(and(eq(traders.companyId, companyId), eq(traders.fullname, demo.fullname)));
    const trader =
      existing ??
      (
        await tx
          .insert(traders)
          .values({ companyId, ...demo, createuser: 'system' })
          .returning({ id: traders.id })
      )[0];
    if (trader) traderIds.set(demo.fullname, trader.id);
  }
  const trader = (name: string) => {
    const id = traderIds.get(name);
    return id === undefined ? [] : [id];
  };
  const category = async (code: string) =>
    (
      await tx
        .select({ id: subjectCategories.id })
        .from(subjectCategories)
        .where(and(eq(subjectCategories.companyId, companyId), eq(subjectCategories.code, code)))
    )[0]?.id ?? null;
  const typeOf = async (seqnr: number) =>
    (
      await tx
        .select({ id: documentTypes.id })
        .from(documentTypes)
        .where(and(eq(documentTypes.companyId, companyId), eq(documentTypes.seqnr, seqnr)))
    )[0]?.id ?? null;

  const principal: Principal = {
    userId: admin.userId,
    sessionId: 'seed',
    username: admin.username,
    kind: 1,
    superAdmin: true,
    scope: effectiveScope([], 1, true),
    companyIds: [companyId],
    sso: false,
  };
  const today = protocolDay(now);
  const demo: SaveDocumentRequest[] = [
    {
      kind: 0,
      subject: 'Αίτηση νέας σύνδεσης ύδρευσης για κατοικία στην οδό Ερμού 12',
      subjectCategoryId: await category('ΥΔΡ'),
      documentTypeId: await typeOf(1),
      protocolBookId: books[BOOK_TYPE_OF_KIND[0]],
      senders: trader('Παπαδόπουλος Ιωάννης'),
      chargedUserId: chargeTo ?? null,
    },
    {
      kind: 0,
      subject: 'Καταγγελία διαρροής στο δίκτυο ύδρευσης της Άνω Πόλης',
      subjectCategoryId: await category('ΒΛΑ'),
      documentTypeId: await typeOf(2),
      protocolBookId: books[BOOK_TYPE_OF_KIND[0]],
      senders: trader('Κωνσταντίνου Ελένη'),
    },
    {
      kind: 0,
      subject: 'Εγκύκλιος για την τιμολογιακή πολιτική των ΔΕΥΑ',
      subjectCategoryId: await category('ΔΙΟ'),
      protocolBookId: books[BOOK_TYPE_OF_KIND[0]],
      protocolIdSender: '4521/Φ.12',
      protocolSendDate: today,
      senders: trader('Υπουργείο Εσωτερικών'),
    },
    {
      kind: 1,
      subject: 'Απάντηση σε αίτηση σύνδεσης ύδρευσης',
      subjectCategoryId: await category('ΥΔΡ'),
      documentTypeId: await typeOf(7),
      protocolBookId: books[BOOK_TYPE_OF_KIND[1]],
      receivers: trader('Παπαδόπουλος Ιωάννης'),
    },
    {
      kind: 1,
      subject: 'Διαβιβαστικό του προϋπολογισμού της επιχείρησης',
      subjectCategoryId: await category('ΔΙΟ'),
      protocolBookId: books[BOOK_TYPE_OF_KIND[1]],
      receivers: trader('Αποκεντρωμένη Διοίκηση Πελοποννήσου'),
    },
  ];
  // An unregistered draft: a contract, whose type is registered by hand (no autonr).
  const contract = await typeOf(5);
  if (contract !== null) {
    demo.push({
      kind: 1,
      subject: 'Σχέδιο σύμβασης προμήθειας υδρομετρητών',
      subjectCategoryId: await category('ΠΡΟ'),
      documentTypeId: contract,
      receivers: [],
    });
  }
  for (const input of demo) {
    await createDocument(tx, principal, companyId, saveDocumentSchema.parse(input), { requestId: 'seed' });
  }
}
