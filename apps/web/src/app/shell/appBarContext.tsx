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
