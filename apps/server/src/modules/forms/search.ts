import { searchSubmissionSchema } from '@protocol/contracts';
import { and, desc, eq } from 'drizzle-orm';
import { defineSearchSource } from '../../platform/search/search.ts';
import { formSubmissions, onlineForms } from './forms.schema.ts';

/** Submissions of the company by reference, applicant or protocol number. */
export const submissionSearchSource = defineSearchSource({
  key: 'submissionDTOList',
  permission: 'forms:read',
  indexes: 'form_submissions',
  item: searchSubmissionSchema,
  find: ({ db, companyId, text, limit }) =>
    db
      .select({
        id: formSubmissions.id,
        reference: formSubmissions.reference,
        applicant: formSubmissions.applicant,
        formTitle: onlineForms.title,
      })
      .from(formSubmissions)
      .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
      .where(and(eq(formSubmissions.companyId, companyId), text.matches(formSubmissions.searchVector)))
      .orderBy(desc(formSubmissions.id))
      .limit(limit),
});
