import { z } from 'zod';

/**
 * Catalog keys of every error the API can answer with (spec §8). The web app translates
 * `key` with `params`; the server also sends a `message` in the caller's language.
 */
export const errorKeys = {
  badCredentials: 'error.bad_credentials',
  unauthorized: 'error.unauthorized',
  forbidden: 'error.forbidden',
  notFound: 'error.not_found',
  badData: 'error.bad_data',
  /** The request names the company twice (X-Company-Id and ?companyid=) with different ids. */
  companyNamedTwice: 'error.company_named_twice',
  requiredFields: 'error.required_fields',
  tooManyAttempts: 'error.too_many_attempts',
  /** GET /api/ready: a check failed or the node is shutting down; `failing` names the checks. */
  notReady: 'error.not_ready',
  noPasswordVerification: 'error.no_password_verification',
  sharedTable: 'error.shared_table',
  server: 'error.server',
  userInactive: 'error.user_inactive',
  ssoNotConfigured: 'error.sso_not_configured',
  ssoFailed: 'error.sso_failed',
  ssoUnknownUser: 'error.sso_unknown_user',
  noAccessSuperAdmin: 'error.no_access_super_admin',
  noAccessUser: 'error.no_access_user',
  companiesSuperAdminOnly: 'error.companies_super_admin_only',
  payloadTooLarge: 'error.payload_too_large',
  unknownField: 'error.unknown_field',
  unknownOperator: 'error.unknown_operator',
  deleteUsersForbidden: 'error.delete_users_forbidden',
  usernameTaken: 'error.username_taken',
  namesNotUnique: 'error.names_not_unique',
  bookTypesUniquePerYear: 'error.book_types_unique_per_year',
  linkedElsewhere: 'error.linked_elsewhere',
  globalViewsAdminOnly: 'error.global_views_admin_only',
  globalViewsSuperAdminOnly: 'error.global_views_super_admin_only',
  registryWrongAfm: 'error.registry_wrong_afm',
  registryNotFound: 'error.registry_not_found',
  registryNotRegistered: 'error.registry_not_registered',
  registryDailyLimit: 'error.registry_daily_limit',
  registryUnavailable: 'error.registry_unavailable',
  registryNoCredentials: 'error.registry_no_credentials',
  mailNotConfigured: 'error.mail_not_configured',
  mailFailed: 'error.mail_failed',
  jobNotQueued: 'error.job_not_queued',
  searchTooShort: 'error.search_too_short',
  formNotFound: 'error.form_not_found',
  formReadonly: 'error.form_readonly',
  formIdTaken: 'error.form_id_taken',
  statusNotAllowed: 'error.status_not_allowed',
  submissionRejected: 'error.submission_rejected',
  importUnreadable: 'error.import_unreadable',
  importUnpackedTooLarge: 'error.import_unpacked_too_large',
  importLineTooLong: 'error.import_line_too_long',
  importTooManyRows: 'error.import_too_many_rows',
  importTooManyCells: 'error.import_too_many_cells',
  importCellTooLong: 'error.import_cell_too_long',
  importEnded: 'error.import_ended',
  importNoResult: 'error.import_no_result',
  jobAborted: 'error.job_aborted',
  jobFileGone: 'error.job_file_gone',
  jobFailed: 'error.job_failed',
  jobAbandoned: 'error.job_abandoned',
} as const;
export type ErrorKey = (typeof errorKeys)[keyof typeof errorKeys];

/** Keys of field-level validation messages (spec §5 'General'). */
export const validationKeys = {
  required: 'validation.required',
  minLength: 'validation.min_length',
  maxLength: 'validation.max_length',
  email: 'validation.email',
  invalid: 'validation.invalid',
  passwordsMismatch: 'validation.passwords_mismatch',
  passwordTooShort: 'validation.password_too_short',
  usernameChars: 'validation.username_chars',
  vatnumber: 'validation.vatnumber',
  iban: 'validation.iban',
  date: 'validation.date',
} as const;

export const fieldErrorSchema = z.object({
  field: z.string(),
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const apiErrorSchema = z.object({
  status: z.number().int(),
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
  fieldErrors: z.array(fieldErrorSchema).optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

type Issue = z.core.$ZodIssue;

/** Turns a zod issue into a catalog key with params, so both sides show the same message. */
export function issueToFieldError(issue: Issue): FieldError {
  const field = issue.path.map(String).join('.');
  // A module's own rule keys live in its catalog as `<module>.validation.<rule>`; a rule across
  // fields may name an error key (`error.invalid_date_range`).
  if (/^([a-zA-Z]+\.)?(validation|error)\./.test(issue.message)) {
    // A custom issue may carry the message's params (e.g. the periodicity rules' limits).
    const params = issue.code === 'custom' ? (issue.params as FieldError['params'] | undefined) : undefined;
    return { field, key: issue.message, params: params ?? {} };
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) {
        return { field, key: validationKeys.required, params: {} };
      }
      return { field, key: validationKeys.invalid, params: {} };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) {
        return { field, key: validationKeys.required, params: {} };
      }
      return { field, key: validationKeys.minLength, params: { length: Number(issue.minimum) } };
    case 'too_big':
      return { field, key: validationKeys.maxLength, params: { length: Number(issue.maximum) } };
    case 'invalid_format':
      if (issue.format === 'email') return { field, key: validationKeys.email, params: {} };
      return { field, key: validationKeys.invalid, params: {} };
    default:
      return { field, key: validationKeys.invalid, params: {} };
  }
}
