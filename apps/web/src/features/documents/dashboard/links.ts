import { filteredList } from '../../../lib/listLinks.ts';

/** The active documents (both kinds) whose current charge is this operator. */
export const chargedToMeList = (userId: number) =>
  filteredList('/document', [{ field: 'chargedUserId', op: 'eq', value: String(userId) }]);

/** The active documents registered in one book on one day, or since a day when `since` is set. */
export const registrationsList = (book: string | null, day: string, since = false) =>
  filteredList(
    '/document',
    [
      ...(book === null ? [] : [{ field: 'protocolBook', op: 'eq' as const, value: book }]),
      { field: 'protocolDate', op: since ? 'gte' : 'eq', value: day },
    ],
    'protocolDate,DESC',
  );
