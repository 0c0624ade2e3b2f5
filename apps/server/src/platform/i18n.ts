import type { Language } from '@protocol/contracts';

/**
 * Server-side texts of the catalog keys the API answers with. The web app has the full catalogs
 * and translates `key` itself; this `message` serves API callers and logs.
 */
const messages: Record<Language, Record<string, string>> = {
  el: {
    'error.bad_credentials': 'Λάθος όνομα χρήστη ή κωδικός πρόσβασης',
    'error.unauthorized': 'Λάθος όνομα χρήστη ή κωδικός πρόσβασης',
    'error.forbidden': 'Δεν έχετε δικαίωμα πρόσβασης',
    'error.not_found': 'Ο πόρος που ζητήσατε δεν βρέθηκε',
    'error.bad_data': 'Τα δεδομένα που δώσατε δεν είναι σωστά.',
    'error.required_fields': 'Συμπληρώστε τα υποχρεωτικά πεδία.',
    'error.too_many_attempts':
      'Πάρα πολλές αποτυχημένες προσπάθειες. Δοκιμάστε ξανά σε {{seconds}} δευτερόλεπτα.',
    'error.server': 'Παρουσιάστηκε σφάλμα. Επικοινωνήστε με τον διαχειριστή του συστήματος.',
    'error.user_inactive': 'Ο λογαριασμός σας είναι ανενεργός. Επικοινωνήστε με τον διαχειριστή.',
    'error.sso_not_configured': 'Η ενιαία είσοδος δεν έχει ρυθμιστεί.',
    'error.sso_failed': 'Η ενιαία είσοδος απέτυχε. Δοκιμάστε ξανά.',
    'error.sso_unknown_user': 'Ο χρήστης του παρόχου ταυτότητας δεν είναι καταχωρημένος χειριστής.',
    'error.no_access_super_admin': 'Δεν έχετε πρόσβαση στον Super Admin χρήστη',
    'error.no_access_user': 'Δεν έχετε πρόσβαση στον συγκεκριμένο χρήστη',
    'error.payload_too_large': 'Το αίτημα είναι πολύ μεγάλο.',
    'error.unknown_field': 'Άγνωστο πεδίο: {{field}}',
    'error.unknown_operator': 'Μη αποδεκτός τελεστής {{operator}} για το πεδίο {{field}}',
    'error.delete_users_forbidden': 'Η διαγραφή χειριστών δεν επιτρέπεται. Απενεργοποιήστε τον χειριστή ή επικοινωνήστε με τον διαχειριστή.',
    'error.username_taken': 'Το όνομα χρήστη χρησιμοποιείται ήδη',
    'error.names_not_unique': 'Οι ονομασίες πρέπει να είναι μοναδικές',
    'error.book_types_unique_per_year': 'Οι τύποι βιβλίων πρέπει να είναι μοναδικοί ανά έτος',
    'error.linked_elsewhere': 'Η διαγραφή δεν επιτρέπεται: η εγγραφή συνδέεται με άλλα στοιχεία',
    'error.global_views_admin_only': 'Μόνο οι διαχειριστές δημιουργούν, αλλάζουν ή διαγράφουν κοινές προβολές',
    'validation.username_chars': 'Επιτρέπονται γράμματα, αριθμοί και οι χαρακτήρες . _ @ -',
    'validation.required': 'Το πεδίο είναι απαραίτητο',
    'validation.min_length': 'Το πεδίο δεν μπορεί να έχει λιγότερους από {{length}} χαρακτήρες',
    'validation.max_length': 'Το πεδίο δεν μπορεί να έχει περισσότερους από {{length}} χαρακτήρες',
    'validation.email': 'Το email δεν είναι έγκυρο',
    'validation.invalid': 'Η τιμή δεν είναι έγκυρη',
    'validation.passwords_mismatch': 'Οι κωδικοί δεν ταιριάζουν',
    'validation.password_too_short': 'Ο κωδικός πρέπει να έχει τουλάχιστον 8 χαρακτήρες',
  },
  en: {
    'error.bad_credentials': 'Wrong user name or password',
    'error.unauthorized': 'Wrong user name or password',
    'error.forbidden': 'You do not have access',
    'error.not_found': 'The resource you asked for was not found',
    'error.bad_data': 'The data you gave are not correct.',
    'error.required_fields': 'Fill in the required fields.',
    'error.too_many_attempts': 'Too many failed attempts. Try again in {{seconds}} seconds.',
    'error.server': 'An error occurred. Contact the system administrator.',
    'error.user_inactive': 'Your account is inactive. Contact the administrator.',
    'error.sso_not_configured': 'Single sign-on is not configured.',
    'error.sso_failed': 'Single sign-on failed. Try again.',
    'error.sso_unknown_user': 'The identity provider user is not a registered operator.',
    'error.no_access_super_admin': 'No access to the Super Admin user',
    'error.no_access_user': 'No access to the given user',
    'error.payload_too_large': 'The request is too large.',
    'error.unknown_field': 'Unknown field: {{field}}',
    'error.unknown_operator': 'Operator {{operator}} is not allowed for the field {{field}}',
    'error.delete_users_forbidden': 'Deleting operators is forbidden. Deactivate the operator or contact the administrator.',
    'error.username_taken': 'The user name is already in use',
    'error.names_not_unique': 'Names must be unique',
    'error.book_types_unique_per_year': 'Book types must be unique per year',
    'error.linked_elsewhere': 'Deletion is not allowed: the record is linked elsewhere',
    'error.global_views_admin_only': 'Only administrators create, change or delete shared views',
    'validation.username_chars': 'Letters, digits and . _ @ - only',
    'validation.required': 'The field is required',
    'validation.min_length': 'The field cannot have fewer than {{length}} characters',
    'validation.max_length': 'The field cannot have more than {{length}} characters',
    'validation.email': 'The email is not valid',
    'validation.invalid': 'The value is not valid',
    'validation.passwords_mismatch': 'Passwords do not match',
    'validation.password_too_short': 'The password must have at least 8 characters',
  },
};

export function translate(
  language: Language,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const template = messages[language][key] ?? messages.el[key] ?? key;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** The caller's language: the locale cookie first, then Accept-Language, Greek by default. */
export function requestLanguage(
  cookieLocale: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  if (cookieLocale === 'en' || cookieLocale === 'el') return cookieLocale;
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'el';
}
