import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ViewColumnOutlinedIcon from '@mui/icons-material/ViewColumnOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { EntityCatalog } from '@protocol/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOf } from './cells.tsx';
import { type ColumnSetting, defaultColumns, fieldOf } from './state.ts';

export interface ColumnChooserProps {
  catalog: EntityCatalog;
  columns: ColumnSetting[];
  onChange: (columns: ColumnSetting[]) => void;
}

/** Which columns show, in which order; widths change by dragging the header edges. */
export function ColumnChooser({ catalog, columns, onChange }: ColumnChooserProps) {
  const { t } = useTranslation();
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const visibleCount = columns.filter((column) => column.visible).length;

  const toggle = (columnId: string) =>
    onChange(
      columns.map((column) => (column.id === columnId ? { ...column, visible: !column.visible } : column)),
    );

  const move = (index: number, delta: number) => {
    const target = index + delta;
    if (target < 0 || target >= columns.length) return;
    const next = [...columns];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(target, 0, moved);
    onChange(next);
  };

  return (
    <>
      <Tooltip title={t('table.columns.tooltip')} describeChild>
        <Button
          size="small"
          color="inherit"
          data-testid="columns-button"
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? id : undefined}
          startIcon={<ViewColumnOutlinedIcon fontSize="small" />}
          onClick={(event) => setAnchor(event.currentTarget)}
          sx={{ color: 'text.secondary' }}
        >
          {t('table.columns.button')}
        </Button>
      </Tooltip>
      <Popover
        id={id}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-label': t('table.columns.title'),
            'data-testid': 'columns-panel',
          } as object,
        }}
      >
        <Box sx={{ width: 300 }}>
          <Box sx={{ px: 2, pt: 1.5, pb: 1 }}>
            <Typography variant="subtitle2">{t('table.columns.title')}</Typography>
            <Typography variant="caption" color="text.secondary">
              {t('table.columns.hint')}
            </Typography>
          </Box>
          <Divider />
          <List dense disablePadding sx={{ maxHeight: 380, overflowY: 'auto', py: 0.5 }}>
            {columns.map((column, index) => {
              const field = fieldOf(catalog, column.id);
              if (!field) return null;
              const label = labelOf(t, field);
              const lastVisible = column.visible && visibleCount === 1;
              return (
                <ListItem
                  key={column.id}
                  disablePadding
                  sx={{ pl: 1, pr: 1 }}
                  secondaryAction={
                    <Box sx={{ display: 'flex' }}>
                      <IconButton
                        size="small"
                        disabled={index === 0}
                        aria-label={t('table.columns.moveUp', { column: label })}
                        onClick={() => move(index, -1)}
                        data-testid={`column-up-${column.id}`}
                      >
                        <ArrowUpwardIcon sx={{ fontSize: 16 }} />
                      </IconButton>
                      <IconButton
                        size="small"
                        disabled={index === columns.length - 1}
                        aria-label={t('table.columns.moveDown', { column: label })}
                        onClick={() => move(index, 1)}
                        data-testid={`column-down-${column.id}`}
                      >
                        <ArrowDownwardIcon sx={{ fontSize: 16 }} />
                      </IconButton>
                    </Box>
                  }
                >
                  <Box
                    component="label"
                    sx={{ display: 'flex', alignItems: 'center', flexGrow: 1, cursor: 'pointer', pr: 9 }}
                  >
                    <Checkbox
                      size="small"
                      checked={column.visible}
                      disabled={lastVisible}
                      onChange={() => toggle(column.id)}
                      slotProps={{ input: { 'data-testid': `column-toggle-${column.id}` } as object }}
                    />
                    <Typography variant="body2" noWrap>
                      {label}
                    </Typography>
                  </Box>
                </ListItem>
              );
            })}
          </List>
          <Divider />
          <Box sx={{ display: 'flex', justifyContent: 'space-between', px: 1, py: 1 }}>
            <Button
              size="small"
              color="inherit"
              onClick={() => onChange(columns.map((column) => ({ ...column, visible: true })))}
              data-testid="columns-show-all"
            >
              {t('table.columns.showAll')}
            </Button>
            <Button
              size="small"
              onClick={() => onChange(defaultColumns(catalog))}
              data-testid="columns-reset"
            >
              {t('table.columns.reset')}
            </Button>
          </Box>
        </Box>
      </Popover>
    </>
  );
}
