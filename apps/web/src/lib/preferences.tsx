import type { PaletteMode } from '@mui/material';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import { getCookie, setCookie } from './cookies.ts';
import { buildTheme } from './theme.ts';

const THEME_COOKIE = 'theme';
const MENU_MINI_COOKIE = 'menuMini';

interface Preferences {
  mode: PaletteMode;
  toggleMode: () => void;
  menuMini: boolean;
  toggleMenu: () => void;
}

const reducedMotionQuery = () => window.matchMedia('(prefers-reduced-motion: reduce)');
const prefersReducedMotion = () => reducedMotionQuery().matches;
function followReducedMotion(changed: () => void) {
  const query = reducedMotionQuery();
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

const PreferencesContext = createContext<Preferences | null>(null);

/** Theme (cookie 'theme', in the interface language) and the side menu's mini state (cookie 'menuMini'), both remembered. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<PaletteMode>(() =>
    getCookie(THEME_COOKIE) === 'dark' ? 'dark' : 'light',
  );
  const [menuMini, setMenuMini] = useState(() => getCookie(MENU_MINI_COOKIE) === 'true');

  const toggleMode = useCallback(() => {
    setMode((current) => {
      const next = current === 'light' ? 'dark' : 'light';
      setCookie(THEME_COOKIE, next);
      return next;
    });
  }, []);
  const toggleMenu = useCallback(() => {
    setMenuMini((current) => {
      setCookie(MENU_MINI_COOKIE, String(!current));
      return !current;
    });
  }, []);

  const language = useTranslation().i18n.language === 'en' ? 'en' : 'el';
  const reducedMotion = useSyncExternalStore(followReducedMotion, prefersReducedMotion);
  const theme = useMemo(() => buildTheme(mode, language, reducedMotion), [mode, language, reducedMotion]);
  const value = useMemo(
    () => ({ mode, toggleMode, menuMini, toggleMenu }),
    [mode, toggleMode, menuMini, toggleMenu],
  );

  return (
    <PreferencesContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </PreferencesContext.Provider>
  );
}

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences outside PreferencesProvider');
  return value;
}
