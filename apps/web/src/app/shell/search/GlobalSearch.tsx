import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import InputBase from '@mui/material/InputBase';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import { SEARCH_MIN_LENGTH, type SearchResponse } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { registerCatalogs } from '../../../i18n/index.ts';
import { api } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { type Icon, type SearchResultView, searchGroups } from '../../../lib/feature.ts';
import { useLocalize } from '../../../lib/language.tsx';
import { features } from '../../features.ts';
import el from './el.json';
import en from './en.json';

// The search's texts come with the shell's chunk, not with the sign-in page.
registerCatalogs({ el, en });

const GROUPS = searchGroups(features);
/** Typing pauses this long before a search is sent. */
const DEBOUNCE_MS = 250;
const PANEL_MAX_HEIGHT = 500;

interface Result extends SearchResultView {
  id: string;
  icon: Icon;
}

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * The top bar's global search (spec §2, §9): from 3 typed characters, debounced; results grouped by
 * the features' search groups in a panel at most 500 px high; ↑/↓ move, Enter or a click opens the
 * record, Esc closes the panel (and clears the box when it is already closed).
 */
export function GlobalSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const anchor = useRef<HTMLDivElement>(null);
  const listId = useId();

  const typed = text.trim();
  const debounced = useDebounced(typed, DEBOUNCE_MS);
  const ready = [...debounced].length >= SEARCH_MIN_LENGTH && debounced === typed;
  const query = useQuery({
    queryKey: ['search', debounced],
    queryFn: ({ signal }) =>
      api.get<SearchResponse>(`/api/search?search=${encodeURIComponent(debounced)}`, {
        signal,
      }),
    enabled: ready,
    staleTime: 10_000,
  });

  const groups = useMemo(() => {
    if (!ready || !query.data) return [];
    const data = query.data;
    return GROUPS.map((group) => ({
      key: group.key,
      label: group.label,
      results: (data[group.key] ?? []).map(
        (item): Result => ({ ...group.present(item), id: `${group.key}-${item.id}`, icon: group.icon }),
      ),
    })).filter((group) => group.results.length > 0);
  }, [ready, query.data]);
  const results = groups.flatMap((group) => group.results);
  const long = [...typed].length >= SEARCH_MIN_LENGTH;
  const showPanel = open && long;

  // Results may shrink under the highlighted one while typing.
  const current = Math.min(active, Math.max(results.length - 1, 0));

  const openResult = (result: Result | undefined) => {
    if (!result) return;
    setOpen(false);
    setText('');
    navigate(localize(result.path));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      openResult(results[current]);
    } else if (event.key === 'Escape') {
      if (showPanel) setOpen(false);
      else setText('');
    }
  };

  const activeId = showPanel && results[current] ? `${listId}-${results[current].id}` : undefined;
  let index = -1;
  return (
    <ClickAwayListener onClickAway={() => setOpen(false)}>
      <Box ref={anchor} sx={{ display: { xs: 'none', sm: 'block' }, mr: 1 }}>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 0.75,
            height: 34,
            width: { sm: 220, md: 320 },
            px: 1.25,
            borderRadius: 1,
            bgcolor: 'rgba(255,255,255,0.14)',
            '&:hover': { bgcolor: 'rgba(255,255,255,0.2)' },
            '&:focus-within': {
              bgcolor: 'rgba(255,255,255,0.24)',
              outline: '2px solid rgba(255,255,255,0.7)',
            },
          }}
        >
          <SearchIcon fontSize="small" aria-hidden />
          <InputBase
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={onKeyDown}
            placeholder={t('search.placeholder')}
            inputProps={{
              'aria-label': t('search.label'),
              role: 'combobox',
              'aria-expanded': showPanel,
              'aria-controls': listId,
              'aria-autocomplete': 'list',
              'aria-activedescendant': activeId,
              'data-testid': 'global-search',
              maxLength: 200,
            }}
            sx={{
              flex: 1,
              color: 'inherit',
              fontSize: 14,
              '& input::placeholder': { color: 'inherit', opacity: 0.8 },
            }}
          />
        </Box>
        <Popper
          open={showPanel}
          anchorEl={anchor.current}
          placement="bottom-end"
          sx={(theme) => ({ zIndex: theme.zIndex.modal })}
        >
          <Paper
            elevation={8}
            data-testid="global-search-panel"
            sx={{ mt: 0.75, width: 440, maxWidth: '95vw', maxHeight: PANEL_MAX_HEIGHT, overflowY: 'auto' }}
          >
            {query.isFetching && <LinearProgress aria-label={t('search.searching')} />}
            {query.isError ? (
              <Typography role="alert" sx={{ p: 2 }} color="error" variant="body2">
                {errorMessage(t, query.error)}
              </Typography>
            ) : ready && query.isSuccess && results.length === 0 ? (
              <Typography sx={{ p: 2 }} color="text.secondary" variant="body2">
                {t('search.none', { text: debounced })}
              </Typography>
            ) : null}
            <List id={listId} role="listbox" aria-label={t('search.results')} dense disablePadding>
              {groups.map((group) => (
                <li key={group.key} role="presentation">
                  <List role="group" aria-label={t(group.label)} dense disablePadding>
                    <ListSubheader role="presentation" sx={{ lineHeight: '32px', fontWeight: 600 }}>
                      {t(group.label)}
                    </ListSubheader>
                    {group.results.map((result) => {
                      index += 1;
                      const position = index;
                      return (
                        <ListItemButton
                          key={result.id}
                          id={`${listId}-${result.id}`}
                          role="option"
                          aria-selected={position === current}
                          selected={position === current}
                          tabIndex={-1}
                          onMouseEnter={() => setActive(position)}
                          onClick={() => openResult(result)}
                        >
                          <ListItemIcon sx={{ minWidth: 36 }}>
                            <result.icon fontSize="small" />
                          </ListItemIcon>
                          <ListItemText
                            primary={result.primary}
                            secondary={result.secondary}
                            slotProps={{
                              primary: { noWrap: true, variant: 'body2' },
                              secondary: { noWrap: true, variant: 'caption' },
                            }}
                          />
                        </ListItemButton>
                      );
                    })}
                  </List>
                </li>
              ))}
            </List>
          </Paper>
        </Popper>
      </Box>
    </ClickAwayListener>
  );
}
