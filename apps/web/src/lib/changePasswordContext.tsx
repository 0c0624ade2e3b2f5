import { createContext, useContext } from 'react';

export const ChangePasswordContext = createContext<() => void>(() => {});

/** Opens the change-password dialog of the shell (spec §2: from the account menu). */
export function useOpenChangePassword(): () => void {
  return useContext(ChangePasswordContext);
}
