import type { CompanyRef } from '@protocol/contracts';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useUser } from './currentUser.tsx';

/** localStorage key of the company in use (its id). */
export const COMPANY_STORAGE_KEY = 'companyId';

export interface CompanyInUse {
  /** The company in use, or null for an operator of no company. */
  companyId: number | null;
  /** Its record (id, companyname, companytitle). */
  company: CompanyRef | null;
  /** The operator's companies (GET /api/users/authenticatedUser). */
  companies: CompanyRef[];
  /** Switches company: remembered in localStorage; the page stays, company-scoped queries refetch. */
  setCompany: (companyId: number) => void;
}

const CompanyContext = createContext<CompanyInUse | null>(null);

function readStored(): number | null {
  try {
    const value = Number(localStorage.getItem(COMPANY_STORAGE_KEY));
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function store(companyId: number): void {
  try {
    localStorage.setItem(COMPANY_STORAGE_KEY, String(companyId));
  } catch {
    // storage unavailable: the choice lasts as long as the page
  }
}

/**
 * The company in use (issue 4), chosen in the top bar: the stored one when the operator still
 * works for it, else their first company. Lives inside CurrentUserGate (it reads the user).
 */
export function CompanyProvider({ children }: { children: ReactNode }) {
  const { companies } = useUser();
  const [stored, setStored] = useState<number | null>(readStored);
  const company = companies.find((item) => item.id === stored) ?? companies[0] ?? null;

  const setCompany = useCallback((companyId: number) => {
    store(companyId);
    setStored(companyId);
  }, []);

  const value = useMemo<CompanyInUse>(
    () => ({ companyId: company?.id ?? null, company, companies, setCompany }),
    [company, companies, setCompany],
  );
  return <CompanyContext.Provider value={value}>{children}</CompanyContext.Provider>;
}

/**
 * The company in use and how to change it. Put `companyId` in the query key of every
 * company-scoped query and pass it as `?companyid=` (see `withCompany`), so a switch refetches.
 */
export function useCompany(): CompanyInUse {
  const value = useContext(CompanyContext);
  if (!value) throw new Error('useCompany outside CompanyProvider');
  return value;
}

/** `path` with `companyid=<id>` added to its query (unchanged when there is no company). */
export function withCompany(path: string, companyId: number | null): string {
  if (companyId === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}companyid=${companyId}`;
}

/** `path` with the company in use as `?companyid=`: a different string (and query key) per company. */
export function useCompanyPath(path: string): string {
  const { companyId } = useCompany();
  return withCompany(path, companyId);
}
