import { type EntityCatalog, userGroupsCatalog, usersCatalog } from '@protocol/contracts';

/**
 * The catalogs the print page knows, by the search address they serve (`/api/<entity>/search`).
 * A new list adds its catalog here so its print page can label and format the columns.
 */
const catalogs: Record<string, EntityCatalog> = {
  '/api/users/search': usersCatalog,
  '/api/users/groups/search': userGroupsCatalog,
};

export function catalogForUri(uri: string): EntityCatalog | undefined {
  const path = uri.split('?')[0] ?? '';
  return catalogs[path];
}
