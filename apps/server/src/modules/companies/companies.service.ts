import type { CompanyRef } from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { CompanyDetails } from '../../platform/pdf/index.ts';
import { companies, companyUsers } from './companies.schema.ts';

/** The company as its prints head it: its title (else its short name) and its ΑΦΜ. */
export async function printedCompany(db: Tx, companyId: number): Promise<CompanyDetails> {
  const [company] = await db
    .select({ name: companies.companytitle, short: companies.companyname, vat: companies.vatnumber })
    .from(companies)
    .where(eq(companies.id, companyId));
  return { name: company?.name || company?.short || '', vatNumber: company?.vat ?? null };
}

export async function companyIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: companyUsers.companyId })
    .from(companyUsers)
    .where(eq(companyUsers.userId, userId));
  return rows.map((r) => r.id);
}

/** The companies an operator works for (the active ones); a super admin works for all. */
export async function companiesOfUser(db: Db, userId: number, superAdmin: boolean): Promise<CompanyRef[]> {
  const columns = {
    id: companies.id,
    companyname: companies.companyname,
    companytitle: companies.companytitle,
  };
  if (superAdmin) return db.select(columns).from(companies).orderBy(asc(companies.id));
  return db
    .select(columns)
    .from(companyUsers)
    .innerJoin(companies, eq(companies.id, companyUsers.companyId))
    .where(and(eq(companyUsers.userId, userId), eq(companies.active, true)))
    .orderBy(asc(companies.id));
}

export async function createCompany(
  tx: Tx,
  values: { companyname: string; companytitle: string; vatnumber?: string },
  createdBy: string,
): Promise<CompanyRef> {
  const [row] = await tx
    .insert(companies)
    .values({ ...values, createuser: createdBy })
    .returning({
      id: companies.id,
      companyname: companies.companyname,
      companytitle: companies.companytitle,
    });
  if (!row) throw new Error('company insert returned nothing');
  await recordAudit(tx, {
    entity: 'company',
    entityId: row.id,
    action: 'create',
    companyId: row.id,
    comments: createdBy,
  });
  return row;
}

export async function addUserToCompany(tx: Tx, companyId: number, userId: number): Promise<void> {
  await tx.insert(companyUsers).values({ companyId, userId }).onConflictDoNothing();
}
