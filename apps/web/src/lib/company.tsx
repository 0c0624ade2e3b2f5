import type { CompanyRef } from '@protocol/contracts';
import { createContext, Fragment, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { setCompanyInUse } from './api.ts';
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
  /** Switches company: remembered in localStorage; the page stays at its address and mounts anew. */
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
 * The company in use, chosen in the top bar: the stored one when the operator still
 * works for it, else their first company. Lives inside CurrentUserGate (it reads the user).
 */
export function CompanyProvider({ children }: { children: ReactNode }) {
  const { companies } = useUser();
  const [stored, setStored] = useState<number | null>(readStored);
  const company = companies.find((item) => item.id === stored) ?? companies[0] ?? null;
  // Before the children render: every request they make, and the hash of every query they build,
  // names this company (lib/api.ts, providers.tsx). A switch renders here first, so here too.
  setCompanyInUse(company?.id ?? null);

  const setCompany = useCallback((companyId: number) => {
    store(companyId);
    setStored(companyId);
  }, []);

  const value = useMemo<CompanyInUse>(
    () => ({ companyId: company?.id ?? null, company, companies, setCompany }),
    [company, companies, setCompany],
  );
  // The shell and its page mount anew on a switch (the address stays): every query is built again under
  // the new company's hash, and no observer is left on the old company's entries for an interval or an
  // invalidation to refetch them with the new company's header. A page's own state (a half-filled form)
  // does not cross to the other company either.
  return (
    <CompanyContext.Provider value={value}>
      <Fragment key={company?.id ?? 0}>{children}</Fragment>
    </CompanyContext.Provider>
  );
}

/**
 * The company in use and how to change it, for what really shows or picks it (the top bar's switcher, a
 * company's name). Requests and the query cache follow it by themselves (lib/api.ts, providers.tsx).
 */
export function useCompany(): CompanyInUse {
  const value = useContext(CompanyContext);
  if (!value) throw new Error('useCompany outside CompanyProvider');
  return value;
}

/**
 * Opens the page of a record that belongs to `companyId` (null: of no company). The server finds a
 * record by id in the company in use only, so a record of another of the operator's companies
 * switches to that company first; the shell then mounts anew at the new address.
 */
export function useOpenInCompany(): (path: string, companyId: number | null) => void {
  const navigate = useNavigate();
  const { companyId: current, companies, setCompany } = useCompany();
  return useCallback(
    (path: string, companyId: number | null) => {
      navigate(path);
      if (companyId !== null && companyId !== current && companies.some((item) => item.id === companyId)) {
        setCompany(companyId);
      }
    },
    [navigate, current, companies, setCompany],
  );
}
