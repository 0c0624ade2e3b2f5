import { searchSubmissionSchema } from '@protocol/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import { builtSelect } from '../../db/prepared.ts';
import { defineSearchSource, matchesWords } from '../../platform/search/search.ts';
import { formSubmissions, onlineForms } from './forms.schema.ts';

const submissions = builtSelect((db) =>
  db
    .select({
      id: formSubmissions.id,
      reference: formSubmissions.reference,
      applicant: formSubmissions.applicant,
      formTitle: onlineForms.title,
    })
    .from(formSubmissions)
    .innerJoin(onlineForms, eq(onlineForms.id, formSubmissions.formId))
    .where(
      and(
        eq(formSubmissions.companyId, sql.placeholder('companyId')),
        matchesWords(formSubmissions.searchVector),
      ),
    )
    .orderBy(desc(formSubmissions.id))
    .limit(sql.placeholder('limit'))
    .$dynamic(),
);

/** Submissions of the company by reference, applicant or protocol number. */
export const submissionSearchSource = defineSearchSource({
  key: 'submissionDTOList',
  permission: 'forms:read',
  indexes: 'form_submissions',
  item: searchSubmissionSchema,
  find: ({ db, companyId, text, limit }) => submissions(db, { companyId, words: text.words, limit }),
});
