import { randomBytes } from 'node:crypto';
import {
  BOOK_TYPE_OF_KIND,
  errorKeys,
  type OnlineForm,
  parseStructure,
  type saveFormSchema,
} from '@protocol/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError } from '../../platform/db-errors.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { companyUsers } from '../companies/companies.schema.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { onlineForms, onlineFormVersions } from './forms.schema.ts';

/*
 * The builder's forms (PUT /api/onlineForms, GET /api/onlineForms/{id}): settings and structure are
 * checked with the contracts' rules; saving a published form whose structure changed publishes a new
 * version, so submissions made with an older one keep theirs.
 */

type SaveForm = z.output<typeof saveFormSchema>;
type FormRow = typeof onlineForms.$inferSelect;

const fieldError = (
  status: number,
  key: string,
  field: string,
  params: Record<string, string | number> = {},
) => new AppError(status, key, params, [{ field, key, params }]);

/** A new public id: short, unguessable enough not to enumerate drafts, readable in a link. */
export const newFormId = () => `f-${randomBytes(6).toString('hex')}`;

export function formAnswer(row: FormRow): OnlineForm {
  return {
    id: row.id,
    form_id: row.formId,
    title: row.title,
    language: row.language as 0 | 1,
    description: row.description,
    submitMethod: row.submitMethod as 0 | 1,
    saveMethod: row.saveMethod as 0 | 1,
    mailTo: row.mailTo,
    successNote: row.successNote,
    errorNote: row.errorNote,
    successUrl: row.successUrl,
    errorUrl: row.errorUrl,
    status: row.status as 0 | 1,
    assign_to: row.assignTo,
    is_online: row.isOnline,
    is_payment: row.isPayment,
    fee: row.fee,
    auto_nr: row.autoNr,
    book: row.bookId,
    disabled: row.disabled,
    readonly: row.readonly,
    printurl: row.printurl,
    parentForm: row.parentFormId,
    api: row.api,
    version: row.version,
    audit: auditFieldsOf(row),
  };
}

/** The createDraft form: nothing stored yet, a generated form_id (spec §4 'Online form'). */
export function draftForm(): OnlineForm {
  return {
    id: null,
    form_id: newFormId(),
    title: '',
    language: 0,
    description: null,
    submitMethod: 0,
    saveMethod: 0,
    mailTo: null,
    successNote: null,
    errorNote: null,
    successUrl: null,
    errorUrl: null,
    status: 0,
    assign_to: null,
    is_online: false,
    is_payment: false,
    fee: null,
    auto_nr: false,
    book: null,
    disabled: false,
    readonly: false,
    printurl: null,
    parentForm: null,
    api: '[]',
    version: 0,
    audit: null,
  };
}

export async function formRow(db: Db | Tx, companyId: number, id: number, lock = false): Promise<FormRow> {
  const query = db
    .select()
    .from(onlineForms)
    .where(and(eq(onlineForms.id, id), eq(onlineForms.companyId, companyId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw notFound();
  return row;
}

export async function loadForm(db: Db, companyId: number, id: number): Promise<OnlineForm> {
  return formAnswer(await formRow(db, companyId, id));
}

/** What a form names must be of its company: the book (incoming, active), the assignee, the parent. */
async function checkReferences(tx: Tx, companyId: number, input: SaveForm): Promise<void> {
  if (input.book !== null) {
    const [book] = await tx
      .select({ booktype: protocolBooks.booktype, isActive: protocolBooks.isActive })
      .from(protocolBooks)
      .where(and(eq(protocolBooks.id, input.book), eq(protocolBooks.companyId, companyId)));
    if (!book || book.booktype !== BOOK_TYPE_OF_KIND[0] || !book.isActive) {
      throw fieldError(400, 'validation.invalid', 'book');
    }
  }
  if (input.assign_to !== null) {
    const [member] = await tx
      .select({ userId: companyUsers.userId })
      .from(companyUsers)
      .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, input.assign_to)));
    if (!member) throw fieldError(400, 'validation.invalid', 'assign_to');
  }
  if (input.parentForm !== null) {
    const [parent] = await tx
      .select({ id: onlineForms.id })
      .from(onlineForms)
      .where(and(eq(onlineForms.id, input.parentForm), eq(onlineForms.companyId, companyId)));
    if (!parent || parent.id === input.id) throw fieldError(400, 'validation.invalid', 'parentForm');
  }
}

function columnsOf(input: SaveForm) {
  return {
    formId: input.form_id,
    title: input.title,
    language: input.language,
    description: input.description,
    submitMethod: input.submitMethod,
    saveMethod: input.saveMethod,
    mailTo: input.mailTo,
    successNote: input.successNote,
    errorNote: input.errorNote,
    successUrl: input.successUrl,
    errorUrl: input.errorUrl,
    status: input.status,
    assignTo: input.assign_to,
    isOnline: input.is_online,
    isPayment: input.is_payment,
    fee: input.is_payment ? input.fee : null,
    autoNr: input.auto_nr,
    bookId: input.book,
    disabled: input.disabled,
    readonly: input.readonly,
    printurl: input.printurl,
    parentFormId: input.parentForm,
    api: input.api,
  };
}

/** Publishes the form's structure as a new version when it is published and differs from the last. */
async function publishIfChanged(tx: Tx, row: FormRow, username: string): Promise<number> {
  if (row.status !== 1) return row.version;
  const [latest] = await tx
    .select({ api: onlineFormVersions.api })
    .from(onlineFormVersions)
    .where(eq(onlineFormVersions.formId, row.id))
    .orderBy(desc(onlineFormVersions.version))
    .limit(1);
  if (latest && latest.api === row.api) return row.version;
  const version = row.version + 1;
  await tx
    .insert(onlineFormVersions)
    .values({ formId: row.id, version, api: row.api, publishedBy: username });
  await tx.update(onlineForms).set({ version }).where(eq(onlineForms.id, row.id));
  return version;
}

/**
 * Creates (id null) or changes a form; answers its id. The structure must parse and name each field
 * once (dynamicForms.item_already_exists); a form_id in use is 409 naming the field.
 */
export async function saveForm(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveForm,
  requestId?: string,
): Promise<number> {
  const structure = parseStructure(input.api);
  if (!structure.ok) {
    throw new AppError(
      400,
      structure.errors[0]?.key ?? errorKeys.badData,
      structure.errors[0]?.params ?? {},
      structure.errors,
    );
  }
  try {
    return await db.transaction(async (tx) => {
      await checkReferences(tx, companyId, input);
      let row: FormRow | undefined;
      if (input.id === null) {
        [row] = await tx
          .insert(onlineForms)
          .values({
            ...columnsOf(input),
            companyId,
            createUserId: principal.userId,
            createuser: principal.username,
          })
          .returning();
      } else {
        const before = await formRow(tx, companyId, input.id, true);
        [row] = await tx
          .update(onlineForms)
          .set({ ...columnsOf(input), ...updatedBy(principal.username) })
          .where(eq(onlineForms.id, before.id))
          .returning();
      }
      if (!row) throw notFound();
      const version = await publishIfChanged(tx, row, principal.username);
      await recordAudit(tx, {
        entity: 'online_form',
        entityId: row.id,
        action: input.id === null ? 'created' : 'updated',
        companyId,
        user: { userId: principal.userId, username: principal.username },
        changes: version !== row.version ? { version: { before: row.version, after: version } } : undefined,
        requestId,
      });
      return row.id;
    });
  } catch (error) {
    if (pgError(error)?.constraint === 'online_forms_form_id_idx') {
      throw fieldError(409, errorKeys.formIdTaken, 'form_id');
    }
    throw error;
  }
}
