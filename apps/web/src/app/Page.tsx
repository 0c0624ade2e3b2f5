import Box from '@mui/material/Box';
import type { Permission } from '@protocol/contracts';
import { type ComponentType, Suspense } from 'react';
import { lazyPage } from '../lib/routeLoading.ts';

// Only pages behind the shell declare a permission; the check (it reads the user) is its own chunk.
const RequirePermission = lazyPage(() => import('./RequirePermission.tsx'));

interface Props {
  component: ComponentType;
  /** The permission the page needs: without it the operator is sent to /forbidden. */
  requires?: Permission;
}

/** A lazily loaded page; the loading bar shows while its chunk downloads (see routeLoading.ts). */
export function Page({ component: Component, requires }: Props) {
  return (
    <Suspense fallback={<Box sx={{ minHeight: '60vh' }} />}>
      {requires ? (
        <RequirePermission requires={requires}>
          <Component />
        </RequirePermission>
      ) : (
        <Component />
      )}
    </Suspense>
  );
}
