import { isValidVatNumber, normalizeVatNumber } from '@protocol/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { traders } from './traders.schema.ts';

// What other modules may use of the traders (see README "Adding a module").

/** A person who applied for something (an online form's citizen): what is known of them. */
export interface Applicant {
  vatnumber?: string | null;
  email?: string | null;
  lastname?: string | null;
  firstname?: string | null;
  fullname?: string | null;
  phone?: string | null;
  address?: string | null;
  city?: string | null;
  zipcode?: string | null;
}

/** The applicant's ΑΦΜ as traders store it, or null when none was typed or its check digit is wrong. */
export function applicantVat(applicant: Applicant): string | null {
  const vat = applicant.vatnumber ? normalizeVatNumber(applicant.vatnumber) : null;
  return vat && isValidVatNumber(vat) ? vat : null;
}

/**
 * The id of the company's first trader with this ΑΦΜ (null when none), as a subquery: a caller's
 * INSERT reads it in its own statement, without a round trip of its own.
 */
export const traderIdOfVat = (companyId: number, vat: string) =>
  sql<
    number | null
  >`(SELECT ${traders.id} FROM ${traders} WHERE ${traders.companyId} = ${companyId} AND ${traders.vatnumber} = ${vat} ORDER BY ${traders.id} LIMIT 1)`;

/** The company's first trader with this (valid, normalized) ΑΦΜ, if any. */
export async function findTraderByVat(tx: Tx, companyId: number, vat: string): Promise<number | null> {
  const [found] = await tx
    .select({ id: traders.id })
    .from(traders)
    .where(and(eq(traders.companyId, companyId), eq(traders.vatnumber, vat)))
    .orderBy(asc(traders.id))
    .limit(1);
  return found?.id ?? null;
}

/**
 * The company's trader for an applicant: the first one with the same valid ΑΦΜ, else with the same
 * e-mail (case-insensitive), else a new individual trader created from what the applicant typed.
 */
export async function findOrCreateApplicant(
  tx: Tx,
  companyId: number,
  applicant: Applicant,
  username: string,
): Promise<{ id: number; created: boolean }> {
  const validVat = applicantVat(applicant);
  if (validVat) {
    const found = await findTraderByVat(tx, companyId, validVat);
    if (found !== null) return { id: found, created: false };
  }
  const email = applicant.email?.trim().toLowerCase() || null;
  if (email) {
    const [found] = await tx
      .select({ id: traders.id })
      .from(traders)
      .where(and(eq(traders.companyId, companyId), sql`lower(${traders.email}) = ${email}`))
      .orderBy(asc(traders.id))
      .limit(1);
    if (found) return { id: found.id, created: false };
  }
  const lastname = applicant.lastname?.trim() || null;
  const firstname = applicant.firstname?.trim() || null;
  const fullname =
    applicant.fullname?.trim() || [lastname, firstname].filter(Boolean).join(' ') || email || validVat || '—';
  const [row] = await tx
    .insert(traders)
    .values({
      companyId,
      vatnumber: validVat,
      email,
      lastname,
      firstname,
      fullname,
      mobile: applicant.phone?.trim() || null,
      address: applicant.address?.trim() || null,
      city: applicant.city?.trim() || null,
      zipcode: applicant.zipcode?.trim() || null,
      individual: true,
      createuser: username,
    })
    .returning({ id: traders.id });
  if (!row) throw new Error('trader not created');
  return { id: row.id, created: true };
}
