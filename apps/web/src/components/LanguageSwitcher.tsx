import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import type { Language } from '@protocol/contracts';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { setLanguage } from '../i18n/index.ts';
import { setCookie } from '../lib/cookies.ts';
import { LOCALE_COOKIE, localizePath } from '../lib/lang.ts';
import { useLang } from '../lib/language.tsx';

const loadMenu = () => import('./LanguageMenu.tsx');
const LanguageMenu = lazy(loadMenu);

/** Ελληνικά / English: keeps the page, adds or removes /en and remembers the choice for 365 days. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuWanted, setMenuWanted] = useState(false);
  const menuId = useId();

  const choose = (next: Language) => {
    setAnchor(null);
    setCookie(LOCALE_COOKIE, next);
    if (next === lang) return;
    setLanguage(next);
    navigate(`${localizePath(location.pathname, next)}${location.search}${location.hash}`, {
      state: location.state,
    });
  };

  return (
    <>
      <Button
        color="inherit"
        data-testid="topbar-language"
        aria-label={`${t('language.label')}: ${t(`language.${lang}`)}`}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onClick={(event) => {
          setMenuWanted(true);
          setAnchor(event.currentTarget);
        }}
        startIcon={<TranslateIcon />}
        sx={{ textTransform: 'none', fontWeight: 500, minWidth: 0, px: { xs: 1, sm: 1.25 } }}
      >
        <span lang={lang}>{lang === 'el' ? 'Ελληνικά' : 'English'}</span>
      </Button>
      {menuWanted && (
        <Suspense fallback={null}>
          <LanguageMenu
            id={menuId}
            anchor={anchor}
            current={lang}
            onChoose={choose}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
