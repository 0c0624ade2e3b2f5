import {
  type CaseType,
  type CaseTypeRow,
  caseTypesCatalog,
  type DocumentTypeRow,
  documentTypesCatalog,
  errorKeys,
  type ProtocolDocumentType,
  type SubjectCategory,
  type SubjectCategoryRow,
  subjectCategoriesCatalog,
} from '@protocol/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { AppError, badRequest, notFound } from '../../../platform/errors.ts';
import { type RowTable, rowTableColumns } from '../../../platform/row-table/table.ts';
import { caseTypes, documentTypes, subjectCategories } from '../protocol.schema.ts';

/**
 * The protocol's settings tables, on the settings row-table engine: document types with
 * their sequence settings, subject categories and case types, each a table of one company.
 */

const identity = <T>(raw: Record<string, unknown>) => raw as T;

/** Advisory-lock class of a company's document-type save: concurrent saves take turns (seqnr unique). */
const DOCUMENT_TYPES_LOCK = 72510601;

// Correlated subqueries name their tables explicitly: Drizzle leaves columns unqualified in single-table queries.
const relseqDescr = sql<
  string | null
>`(SELECT r.descr FROM document_types r WHERE r.id = ${sql.raw('"document_types"."relseqid"')})`;

export const documentTypesTable: RowTable<DocumentTypeRow, ProtocolDocumentType, ProtocolDocumentType> = {
  entity: 'documentType',
  table: documentTypes,
  id: documentTypes.id,
  catalog: documentTypesCatalog,
  ...rowTableColumns(
    documentTypes.id,
    {
      seqnr: documentTypes.seqnr,
      descr: documentTypes.descr,
      autonr: documentTypes.autonr,
      printype: documentTypes.printype,
      copies: documentTypes.copies,
      checkdates: documentTypes.checkdates,
      relseqid: documentTypes.relseqid,
      active: documentTypes.active,
    },
    ['seqnr', 'descr', 'autonr', 'printype', 'copies', 'checkdates', 'relseqDescr', 'active'],
    { relseqDescr: { read: relseqDescr } },
  ),
  orderBy: [asc(documentTypes.seqnr), asc(documentTypes.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(documentTypes.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  /**
   * Inside the save's transaction: the code (seqnr) is unique in the company (the saved array is the
   * whole table, so unique among its rows), and the reply type is a kept type of the same company.
   */
  async check(tx, companyId, rows) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${DOCUMENT_TYPES_LOCK}, ${companyId ?? -1})`);
    const seen = new Map<number, number>();
    rows.forEach((row, index) => {
      const first = seen.get(row.seqnr);
      if (first !== undefined) {
        throw new AppError(409, errorKeys.namesNotUnique, {
          field: 'seqnr',
          value: row.seqnr,
          rows: `${first},${index}`,
        });
      }
      seen.set(row.seqnr, index);
    });
    const mine = new Set(
      (
        await tx
          .select({ id: documentTypes.id })
          .from(documentTypes)
          .where(eq(documentTypes.companyId, companyId ?? -1))
      ).map((row) => row.id),
    );
    const kept = new Set(rows.map((row) => row.id).filter((id): id is number => id !== null));
    rows.forEach((row, index) => {
      if (row.relseqid === null) return;
      if (!mine.has(row.relseqid)) throw notFound();
      // A type removed by this very save cannot be the reply type of a kept one.
      if (!kept.has(row.relseqid)) {
        throw badRequest([{ field: `${index}.relseqid`, key: 'validation.invalid', params: {} }]);
      }
    });
  },
};

export const subjectCategoriesTable: RowTable<SubjectCategoryRow, SubjectCategory, SubjectCategory> = {
  entity: 'subjectCategory',
  table: subjectCategories,
  id: subjectCategories.id,
  catalog: subjectCategoriesCatalog,
  ...rowTableColumns(
    subjectCategories.id,
    { code: subjectCategories.code, descr: subjectCategories.descr, active: subjectCategories.active },
    ['code', 'descr', 'active'],
  ),
  orderBy: [asc(subjectCategories.descr), asc(subjectCategories.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(subjectCategories.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
};

export const caseTypesTable: RowTable<CaseTypeRow, CaseType, CaseType> = {
  entity: 'caseType',
  table: caseTypes,
  id: caseTypes.id,
  catalog: caseTypesCatalog,
  ...rowTableColumns(caseTypes.id, { descr: caseTypes.descr, active: caseTypes.active }, ['descr', 'active']),
  orderBy: [asc(caseTypes.descr), asc(caseTypes.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(caseTypes.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  /**
   * A name given twice is refused naming its row (the saved array is the whole table); a concurrent
   * save that gives it meanwhile fails on the unique constraint at its commit, a 409 too.
   */
  async check(_tx, _companyId, rows) {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      if (seen.has(row.descr)) {
        throw new AppError(409, errorKeys.namesNotUnique, { field: 'descr', value: row.descr }, [
          { field: `${index}.descr`, key: errorKeys.namesNotUnique, params: { value: row.descr } },
        ]);
      }
      seen.add(row.descr);
    });
  },
};

// ----- default reference data (every new company; the demo utility) -----

/** The default document types: code, description; 1, 2 and 3 are answered with 7, 3 is the default type. */
export const DEMO_DOCUMENT_TYPES: [number, string][] = [
  [1, 'Αίτηση'],
  [2, 'Αναφορά / Καταγγελία'],
  [3, 'Έγγραφο'],
  [4, 'Απόφαση'],
  [5, 'Σύμβαση'],
  [6, 'Τιμολόγιο / Παραστατικό'],
  [7, 'Απάντηση'],
];
const REPLY_SEQNR = 7;
const ANSWERED_SEQNRS = [1, 2, 3];

export const DEMO_SUBJECT_CATEGORIES: [string, string][] = [
  ['ΥΔΡ', 'Ύδρευση'],
  ['ΑΠΟ', 'Αποχέτευση'],
  ['ΛΟΓ', 'Λογαριασμοί ύδρευσης'],
  ['ΒΛΑ', 'Βλάβες - Διαρροές'],
  ['ΠΡΟ', 'Προμήθειες'],
  ['ΠΡΣ', 'Προσωπικό'],
  ['ΔΙΟ', 'Διοικητικά'],
];

export const DEMO_CASE_TYPES = [
  'Αίτηση σύνδεσης ύδρευσης',
  'Βλάβη δικτύου',
  'Διακανονισμός οφειλών',
  'Δημόσια σύμβαση',
  'Νομική υπόθεση',
];

/**
 * The protocol reference data of a new company (and of the demo one): the default document types,
 * subject categories and case types, in the caller's transaction. A company that already has
 * document types is left as it is, so running it twice creates nothing twice.
 */
export async function seedCompanyProtocolDefaults(
  tx: Tx,
  companyId: number,
  createuser: string,
): Promise<void> {
  const [existing] = await tx
    .select({ id: documentTypes.id })
    .from(documentTypes)
    .where(eq(documentTypes.companyId, companyId))
    .limit(1);
  if (existing) return;
  const types = await tx
    .insert(documentTypes)
    .values(
      DEMO_DOCUMENT_TYPES.map(([seqnr, descr]) => ({
        companyId,
        seqnr,
        descr,
        // Invoices and contracts are registered by hand (their book is chosen each time).
        autonr: seqnr !== 5 && seqnr !== 6,
        printype: seqnr === 1 ? 2 : 0,
        copies: 1,
        checkdates: true,
        createuser,
      })),
    )
    .returning({ id: documentTypes.id, seqnr: documentTypes.seqnr });
  const reply = types.find((type) => type.seqnr === REPLY_SEQNR);
  for (const type of types) {
    if (!reply || !ANSWERED_SEQNRS.includes(type.seqnr)) continue;
    await tx.update(documentTypes).set({ relseqid: reply.id }).where(eq(documentTypes.id, type.id));
  }
  await tx
    .insert(subjectCategories)
    .values(DEMO_SUBJECT_CATEGORIES.map(([code, descr]) => ({ companyId, code, descr, createuser })));
  await tx.insert(caseTypes).values(DEMO_CASE_TYPES.map((descr) => ({ companyId, descr, createuser })));
}
