import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { NotFoundPage } from '../errors/NotFoundPage.tsx';

/** An edit page's route: without the id the create page, with a valid one its edit page, else not found. */
export function RecordRoute({
  param,
  create,
  edit,
}: {
  /** The route parameter of the record's id. */
  param: string;
  create: ReactNode;
  /** Keyed by id by the caller's element, so another record starts afresh. */
  edit: (id: number) => ReactNode;
}) {
  const value = useParams()[param];
  if (value === undefined) return create;
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return edit(id);
}
