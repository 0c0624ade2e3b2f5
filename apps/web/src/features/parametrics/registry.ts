import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A parametric table reachable at /parametrics/{code} (spec §2). */
export interface ParametricTable {
  /** Catalog key of the title. */
  titleKey: string;
  /** Catalog key of the line under the title. */
  descriptionKey: string;
  component: LazyExoticComponent<ComponentType>;
}

/** The parametric tables by their route code; each table's code is its own chunk. */
export const parametricTables: Record<string, ParametricTable> = {
  protocolBook: {
    titleKey: 'parametrics.protocolBook.title',
    descriptionKey: 'parametrics.protocolBook.description',
    component: lazy(() => import('./ProtocolBookTable.tsx')),
  },
};

export function findParametricTable(code: string | undefined): ParametricTable | undefined {
  return code && Object.hasOwn(parametricTables, code) ? parametricTables[code] : undefined;
}
