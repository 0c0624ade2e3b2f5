import { lazyPage } from '../../../lib/routeLoading.ts';

const PublicFormPage = lazyPage(() => import('./PublicFormPage.tsx'));

/**
 * What the router loads for /forms/{form_id}: only this stub is named in the sign-in page's preload
 * lists; the public form and its parts come after, so the sign-in JavaScript does not grow.
 */
export default function PublicFormRoute() {
  return <PublicFormPage />;
}
