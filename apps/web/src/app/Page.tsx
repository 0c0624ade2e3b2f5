import Box from '@mui/material/Box';
import { type ComponentType, Suspense } from 'react';

/** A lazily loaded page; the loading bar shows while its chunk downloads (see routeLoading.ts). */
export function Page({ component: Component }: { component: ComponentType }) {
  return (
    <Suspense fallback={<Box sx={{ minHeight: '60vh' }} />}>
      <Component />
    </Suspense>
  );
}
