import Box from '@mui/material/Box';
import { type ReactNode, Suspense, useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { AppBarAsideContext, type AppBarContent, AppBarContext } from '../../lib/appBarContext.tsx';
import { ChangePasswordContext } from '../../lib/changePasswordContext.tsx';
import { CompanyProvider } from '../../lib/company.tsx';
import { CurrentUserGate } from '../../lib/currentUser.tsx';
import { FeaturesContext } from '../../lib/feature.ts';
import { usePreferences } from '../../lib/preferences.tsx';
import { lazyPage } from '../../lib/routeLoading.ts';
import { MENU_MINI_WIDTH, MENU_WIDTH, TOP_BAR_HEIGHT } from '../../lib/theme.ts';
import { AppErrorBoundary } from '../errors/ErrorBoundary.tsx';
import { features } from '../features.ts';
import { PageBar } from './PageBar.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TopBar } from './TopBar.tsx';

const ChangePasswordDialog = lazyPage(() => import('../../components/ChangePasswordDialog.tsx'));

/** The signed-in shell: top bar, side menu, app bar, and the page (or `children`) below. */
export default function AppLayout({ children }: { children?: ReactNode }) {
  return (
    <CurrentUserGate>
      <CompanyProvider>
        <Shell>{children}</Shell>
      </CompanyProvider>
    </CurrentUserGate>
  );
}

function Shell({ children }: { children?: ReactNode }) {
  const { menuMini } = usePreferences();
  const [content, setContent] = useState<AppBarContent>({});
  const [aside, setAside] = useState<ReactNode>(null);
  // Mounted on first use (its code is a separate chunk), then kept so it can animate closed.
  const [changePasswordMounted, setChangePasswordMounted] = useState(false);
  const [changePasswordOpen, setChangePasswordOpen] = useState(false);
  const openChangePassword = useCallback(() => {
    setChangePasswordMounted(true);
    setChangePasswordOpen(true);
  }, []);
  const menuWidth = menuMini ? MENU_MINI_WIDTH : MENU_WIDTH;

  return (
    <AppBarContext.Provider value={setContent}>
      <AppBarAsideContext.Provider value={setAside}>
        <ChangePasswordContext.Provider value={openChangePassword}>
          <TopBar />
          <SideMenu />
          <Box
            component="main"
            sx={(theme) => ({
              pt: `${TOP_BAR_HEIGHT}px`,
              ml: `${menuWidth}px`,
              minHeight: '100vh',
              display: 'flex',
              flexDirection: 'column',
              transition: theme.transitions.create('margin-left', {
                duration: theme.transitions.duration.shorter,
              }),
            })}
          >
            <PageBar content={content} aside={aside} />
            <Box sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, width: '100%', maxWidth: 1440, mx: 'auto' }}>
              <FeaturesContext.Provider value={features}>
                <AppErrorBoundary>{children ?? <Outlet />}</AppErrorBoundary>
              </FeaturesContext.Provider>
            </Box>
          </Box>
          {changePasswordMounted && (
            <Suspense fallback={null}>
              <ChangePasswordDialog open={changePasswordOpen} onClose={() => setChangePasswordOpen(false)} />
            </Suspense>
          )}
        </ChangePasswordContext.Provider>
      </AppBarAsideContext.Provider>
    </AppBarContext.Provider>
  );
}
