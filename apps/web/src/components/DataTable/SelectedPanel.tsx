import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from './cells.tsx';

/** Spec §2/§9: the selected-items list is at least 250 px wide. */
export const SELECTED_PANEL_MIN_WIDTH = 250;

export interface SelectedPanelProps {
  items: Row[];
  label: (row: Row) => string;
  secondary?: (row: Row) => string;
  onRemove: (row: Row) => void;
  onClear: () => void;
  onClose: () => void;
}

/** The selected rows, across pages, each with a remove button. */
export function SelectedPanel({ items, label, secondary, onRemove, onClear, onClose }: SelectedPanelProps) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Box
      component="aside"
      aria-labelledby={headingId}
      data-testid="selected-panel"
      sx={{
        minWidth: SELECTED_PANEL_MIN_WIDTH,
        width: 280,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: (theme) => (theme.palette.mode === 'light' ? '#fafafe' : 'rgba(255,255,255,0.02)'),
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pl: 2, pr: 1, py: 1, gap: 1 }}>
        <Typography id={headingId} variant="subtitle2" sx={{ flexGrow: 1 }}>
          {t('table.selected.title', { count: items.length })}
        </Typography>
        <IconButton size="small" aria-label={t('table.selected.close')} onClick={onClose}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      {items.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
          {t('table.selected.empty')}
        </Typography>
      ) : (
        <List dense disablePadding sx={{ overflowY: 'auto', flexGrow: 1, maxHeight: 520 }}>
          {items.map((row) => {
            const text = label(row);
            return (
              <ListItem
                key={row.id}
                data-testid="selected-item"
                data-id={row.id}
                divider
                secondaryAction={
                  <IconButton
                    edge="end"
                    size="small"
                    aria-label={t('table.selected.remove', { item: text })}
                    data-testid={`selected-remove-${row.id}`}
                    onClick={() => onRemove(row)}
                  >
                    <CloseIcon sx={{ fontSize: 16 }} />
                  </IconButton>
                }
              >
                <ListItemText
                  primary={text}
                  secondary={secondary?.(row)}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
              </ListItem>
            );
          })}
        </List>
      )}
      {items.length > 0 && (
        <Box sx={{ p: 1, borderTop: 1, borderColor: 'divider' }}>
          <Button size="small" color="inherit" fullWidth onClick={onClear} data-testid="selected-clear">
            {t('table.selected.clear')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
