import type { PaletteMode } from '@mui/material';
import { elGR, enUS } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import type { Language } from '@protocol/contracts';

export const TOP_BAR_HEIGHT = 50;
export const APP_BAR_HEIGHT = 43;
export const MENU_WIDTH = 230;
export const MENU_MINI_WIDTH = 43;

/**
 * Spec §9: primary #5000ff in the light theme, #00c8fe in the dark one. MUI's own texts (a select's
 * 'Open', a table's 'Rows per page') follow the interface language. Where the person's system asks
 * for less motion (`prefers-reduced-motion`, WCAG 2.3.3), dialogs, menus and drawers appear without
 * sliding or fading.
 */
export function buildTheme(mode: PaletteMode, language: Language, reducedMotion = false) {
  const light = mode === 'light';
  return createTheme(
    {
      ...(reducedMotion ? { transitions: { create: () => 'none' } } : {}),
      palette: {
        mode,
        primary: light
          ? { main: '#5000ff', light: '#7c4dff', dark: '#3a00c2', contrastText: '#ffffff' }
          : { main: '#00c8fe', light: '#5cdcff', dark: '#0096c2', contrastText: '#00131a' },
        secondary: light ? { main: '#0077a8' } : { main: '#b39dff' },
        background: light
          ? { default: '#f4f5fa', paper: '#ffffff' }
          : { default: '#0f1117', paper: '#181b23' },
        divider: light ? 'rgba(20, 20, 60, 0.12)' : 'rgba(255, 255, 255, 0.12)',
        text: light
          ? { primary: '#1b1d29', secondary: '#545770' }
          : { primary: '#eceef5', secondary: '#aeb2c4' },
      },
      shape: { borderRadius: 8 },
      typography: {
        fontFamily:
          'Roboto, "Segoe UI", "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif',
        fontSize: 14,
        h1: { fontSize: '2rem', fontWeight: 600 },
        h2: { fontSize: '1.6rem', fontWeight: 600 },
        h3: { fontSize: '1.35rem', fontWeight: 600 },
        h4: { fontSize: '1.2rem', fontWeight: 600 },
        h5: { fontSize: '1.1rem', fontWeight: 600 },
        h6: { fontSize: '1rem', fontWeight: 600 },
        button: { fontWeight: 600, letterSpacing: '0.02em' },
      },
      components: {
        MuiCssBaseline: {
          styleOverrides: {
            body: { overflowY: 'scroll' },
          },
        },
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiPaper: {
          styleOverrides: {
            outlined: { borderColor: light ? 'rgba(20, 20, 60, 0.12)' : 'rgba(255, 255, 255, 0.12)' },
          },
        },
        MuiTooltip: { defaultProps: { arrow: true } },
        MuiTextField: { defaultProps: { fullWidth: true } },
      },
    },
    language === 'en' ? enUS : elGR,
  );
}
