import type { ReactNode } from 'react';
import { createContext, useContext, useEffect } from 'react';

export interface PageAction {
  key: string;
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
}

export interface AppBarContent {
  title?: string;
  actions?: PageAction[];
}

type Setter = (content: AppBarContent) => void;

export const AppBarContext = createContext<Setter | null>(null);

/**
 * A page tells the app bar its title and its actions. Pass a memoised `actions` array; an empty
 * list shows no actions button at all.
 */
export function useAppBar(content: AppBarContent): void {
  const set = useContext(AppBarContext);
  const { title, actions } = content;
  useEffect(() => {
    if (!set) return;
    set({ title, actions });
    return () => set({});
  }, [set, title, actions]);
}

type AsideSetter = (node: ReactNode) => void;

/** A slot on the right of the app bar (before the actions), e.g. the edit pages' fast switch. */
export const AppBarAsideContext = createContext<AsideSetter | null>(null);

/** Puts `node` in the app bar's slot while the page is shown; pass a memoised node. */
export function useAppBarAside(node: ReactNode): void {
  const set = useContext(AppBarAsideContext);
  useEffect(() => {
    if (!set) return;
    set(node);
    return () => set(null);
  }, [set, node]);
}
